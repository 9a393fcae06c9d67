import { Module } from '@nestjs/common';
import { Feature } from '@media/platform';
import { NotificationSettings1764800000020 } from '../database/migrations/1764800000020-notification-settings';
import { TimeZoneSpelling1764800000023 } from '../database/migrations/1764800000023-time-zone-spelling';
import { QuietHoursModule } from '../quiet-hours/quiet-hours.module';
import { NotificationSettings } from './notification-settings.entity';
import { SettingsController } from './settings.controller';
import { SettingsService } from './settings.service';

/** A user's timezone, quiet hours and daily digest (docs/api/contract.md §7.3). */
@Feature({
  entities: [NotificationSettings],
  migrations: [NotificationSettings1764800000020, TimeZoneSpelling1764800000023],
})
@Module({
  imports: [QuietHoursModule],
  controllers: [SettingsController],
  providers: [SettingsService],
  exports: [SettingsService],
})
export class SettingsModule {}
