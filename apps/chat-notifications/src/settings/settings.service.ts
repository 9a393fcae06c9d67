import { Inject, Injectable } from '@nestjs/common';
import { InjectDataSource } from '@nestjs/typeorm';
import type { AuthUser } from '@media/core';
import { In, type DataSource } from 'typeorm';
import { ClockService } from '../quiet-hours/clock.service';
import type { SettingsDto } from './dto/settings.dto';
import { NotificationSettings } from './notification-settings.entity';
import { nextDigestAt } from '../quiet-hours/quiet-hours';
import { toSettingsView, type SettingsView } from './settings.view';

/** The caller's timezone, quiet hours and digest (docs/api/contract.md §7.3). */
@Injectable()
export class SettingsService {
  constructor(
    @InjectDataSource() private readonly dataSource: DataSource,
    @Inject(ClockService) private readonly clock: ClockService,
  ) {}

  /** The stored settings of each of these users; a user without a row (the defaults) is missing. */
  async of(recipientIds: string[]): Promise<Map<string, NotificationSettings>> {
    const ids = [...new Set(recipientIds)];
    if (ids.length === 0) return new Map();
    const rows = await this.dataSource.getRepository(NotificationSettings).findBy({ recipientId: In(ids) });
    return new Map(rows.map((r) => [r.recipientId, r]));
  }

  async get(user: AuthUser): Promise<SettingsView> {
    return toSettingsView(
      await this.dataSource.getRepository(NotificationSettings).findOneBy({ recipientId: user.id }),
    );
  }

  /**
   * Replaces the whole settings (the DTO has filled in the defaults of missing fields), and with
   * them what waits: the next digest is due at the next `digest_time` (or the end of quiet hours
   * then); entries waiting for a digest that was turned off are delivered as usual again; held
   * entries are looked at again at once under the new quiet hours.
   */
  async replace(dto: SettingsDto, user: AuthUser): Promise<SettingsView> {
    const quiet = dto.quiet_hours ? { start: dto.quiet_hours.start, end: dto.quiet_hours.end } : null;
    const now = this.clock.now();
    const next =
      dto.email_digest === 'daily' ? nextDigestAt(now, dto.timezone, dto.digest_time, quiet) : null;
    await this.dataSource.transaction(async (manager) => {
      await manager.query(
        `INSERT INTO notification_settings
                (recipient_id, timezone, quiet_start, quiet_end, email_digest, digest_time, next_digest_at)
         VALUES ($1, $2, $3, $4, $5, $6, $7)
         ON CONFLICT (recipient_id) DO UPDATE
           SET timezone = EXCLUDED.timezone, quiet_start = EXCLUDED.quiet_start, quiet_end = EXCLUDED.quiet_end,
               email_digest = EXCLUDED.email_digest, digest_time = EXCLUDED.digest_time,
               next_digest_at = EXCLUDED.next_digest_at, updated_at = clock_timestamp()`,
        [
          user.id,
          dto.timezone,
          quiet?.start ?? null,
          quiet?.end ?? null,
          dto.email_digest,
          dto.digest_time,
          next,
        ],
      );
      if (dto.email_digest === 'off') {
        await manager.query(
          `UPDATE notifications SET email_status = 'pending' WHERE recipient_id = $1 AND email_status = 'digest'`,
          [user.id],
        );
      }
      await manager.query(
        `UPDATE notifications SET held_until = $2 WHERE recipient_id = $1 AND email_status = 'held'`,
        [user.id, now],
      );
    });
    return this.get(user);
  }
}
