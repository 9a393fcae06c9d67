import { Injectable } from '@nestjs/common';
import { InjectDataSource } from '@nestjs/typeorm';
import type { AuthUser } from '@media/platform';
import type { DataSource } from 'typeorm';
import type { SettingsDto } from './dto/settings.dto';
import { NotificationSettings } from './notification-settings.entity';
import { toSettingsView, type SettingsView } from './notifications.view';

/** The caller's timezone, quiet hours and digest (docs/api/contract.md §7.3). */
@Injectable()
export class SettingsService {
  constructor(@InjectDataSource() private readonly dataSource: DataSource) {}

  async get(user: AuthUser): Promise<SettingsView> {
    return toSettingsView(
      await this.dataSource.getRepository(NotificationSettings).findOneBy({ recipientId: user.id }),
    );
  }

  /** Replaces the whole settings (the DTO has filled in the defaults of missing fields). */
  async replace(dto: SettingsDto, user: AuthUser): Promise<SettingsView> {
    await this.dataSource.query(
      `INSERT INTO notification_settings (recipient_id, timezone, quiet_start, quiet_end, email_digest, digest_time)
       VALUES ($1, $2, $3, $4, $5, $6)
       ON CONFLICT (recipient_id) DO UPDATE
         SET timezone = EXCLUDED.timezone, quiet_start = EXCLUDED.quiet_start, quiet_end = EXCLUDED.quiet_end,
             email_digest = EXCLUDED.email_digest, digest_time = EXCLUDED.digest_time,
             updated_at = clock_timestamp()`,
      [
        user.id,
        dto.timezone,
        dto.quiet_hours?.start ?? null,
        dto.quiet_hours?.end ?? null,
        dto.email_digest,
        dto.digest_time,
      ],
    );
    return this.get(user);
  }
}
