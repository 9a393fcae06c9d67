import { Module } from '@nestjs/common';
import { RealtimeModule } from '../realtime/realtime.module';
import { DeliveryWorker } from './delivery.worker';
import { InboxService } from './inbox.service';
import { MailerService } from './mailer.service';
import { NotificationsRpcController } from './notifications-rpc.controller';
import { NotificationsController } from './notifications.controller';
import { Notifier } from './notifier.service';
import { PreferencesService } from './preferences.service';
import { Feature } from '@media/platform';
import { NotificationPreference } from './notification-preference.entity';
import { Notification } from './notification.entity';
import { CreateNotifications1764800000001 } from '../database/migrations/1764800000001-create-notifications';
import { EmailLease1764800000010 } from '../database/migrations/1764800000010-email-lease';

@Feature({
  entities: [NotificationPreference, Notification],
  migrations: [CreateNotifications1764800000001, EmailLease1764800000010],
})
@Module({
  imports: [RealtimeModule],
  controllers: [NotificationsController, NotificationsRpcController],
  providers: [PreferencesService, InboxService, Notifier, MailerService, DeliveryWorker],
  exports: [Notifier],
})
export class NotificationsModule {}
