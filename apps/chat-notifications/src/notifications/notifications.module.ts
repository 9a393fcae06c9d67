import { Module } from '@nestjs/common';
import { Feature } from '@media/platform';
import { CreateNotifications1764800000001 } from '../database/migrations/1764800000001-create-notifications';
import { EmailLease1764800000010 } from '../database/migrations/1764800000010-email-lease';
import { NotificationPriority1764800000021 } from '../database/migrations/1764800000021-notification-priority';
import { NotificationRetention1764800000090 } from '../database/migrations/1764800000090-notification-retention';
import { PushPendingIndex1765300000100 } from '../database/migrations/1765300000100-push-pending-index';
import { DigestModule } from '../digest/digest.module';
import { MailModule } from '../mail/mail.module';
import { QuietHoursModule } from '../quiet-hours/quiet-hours.module';
import { RealtimeModule } from '../realtime/realtime.module';
import { DeliveryWorker } from './delivery.worker';
import { InboxService } from './inbox.service';
import { NotificationPreference } from './notification-preference.entity';
import { Notification } from './notification.entity';
import { NotificationsController } from './notifications.controller';
import { NotificationsRpc } from './notifications.rpc';
import { NotifierService } from './notifier.service';
import { PreferencesService } from './preferences.service';
import { RetentionService } from './retention.service';

@Feature({
  entities: [NotificationPreference, Notification],
  migrations: [
    CreateNotifications1764800000001,
    EmailLease1764800000010,
    NotificationPriority1764800000021,
    NotificationRetention1764800000090,
    PushPendingIndex1765300000100,
  ],
})
@Module({
  imports: [RealtimeModule, QuietHoursModule, MailModule, DigestModule],
  controllers: [NotificationsController, NotificationsRpc],
  providers: [PreferencesService, InboxService, NotifierService, DeliveryWorker, RetentionService],
  exports: [NotifierService],
})
export class NotificationsModule {}
