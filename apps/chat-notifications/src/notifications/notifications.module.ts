import { Module } from '@nestjs/common';
import { RealtimeModule } from '../realtime/realtime.module';
import { DeliveryWorker } from './delivery.worker';
import { InboxService } from './inbox.service';
import { MailerService } from './mailer.service';
import { NotificationsRpc } from './notifications.rpc';
import { NotificationsController } from './notifications.controller';
import { NotifierService } from './notifier.service';
import { SettingsController } from './settings.controller';
import { SettingsService } from './settings.service';
import { NotificationSettings } from './notification-settings.entity';
import { NotificationSettings1764800000020 } from '../database/migrations/1764800000020-notification-settings';
import { NotificationPriority1764800000021 } from '../database/migrations/1764800000021-notification-priority';
import { QuietHoursDigests1764800000022 } from '../database/migrations/1764800000022-quiet-hours-digests';
import { TimeZoneSpelling1764800000023 } from '../database/migrations/1764800000023-time-zone-spelling';
import { NotificationRetention1764800000090 } from '../database/migrations/1764800000090-notification-retention';
import { RetentionService } from './retention.service';
import { ClockService } from './clock.service';
import { DigestService } from './digest.service';
import { PreferencesService } from './preferences.service';
import { Feature } from '@media/platform';
import { NotificationPreference } from './notification-preference.entity';
import { Notification } from './notification.entity';
import { CreateNotifications1764800000001 } from '../database/migrations/1764800000001-create-notifications';
import { EmailLease1764800000010 } from '../database/migrations/1764800000010-email-lease';

@Feature({
  entities: [NotificationPreference, Notification, NotificationSettings],
  migrations: [
    CreateNotifications1764800000001,
    EmailLease1764800000010,
    NotificationSettings1764800000020,
    NotificationPriority1764800000021,
    QuietHoursDigests1764800000022,
    TimeZoneSpelling1764800000023,
    NotificationRetention1764800000090,
  ],
})
@Module({
  imports: [RealtimeModule],
  controllers: [NotificationsController, SettingsController, NotificationsRpc],
  providers: [
    PreferencesService,
    SettingsService,
    ClockService,
    DigestService,
    InboxService,
    NotifierService,
    MailerService,
    DeliveryWorker,
    RetentionService,
  ],
  exports: [NotifierService],
})
export class NotificationsModule {}
