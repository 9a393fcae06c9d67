import { defineApp, DeletedDocumentsModule } from '@media/platform';
import { ChatModule } from './chat/chat.module';
import { chatNotificationsConfig } from './config';
import { EventsModule } from './events/events.module';
import { NotificationsModule } from './notifications/notifications.module';
import { RealtimeModule } from './realtime/realtime.module';
import { SettingsModule } from './settings/settings.module';
import { WebhooksModule } from './webhooks/webhooks.module';

/** How chat-notifications boots, alone or inside the embedded default: its features declare their own tables. */
export const chatNotificationsApp = defineApp({
  name: 'chat-notifications',
  config: chatNotificationsConfig,
  features: [
    // The durable consumer's name, under which its position and processed events are kept.
    DeletedDocumentsModule.forApp({ consumer: 'AppEventsConsumer.documentDeleted' }),
    RealtimeModule,
    ChatModule,
    SettingsModule,
    NotificationsModule,
    EventsModule,
    WebhooksModule,
  ],
});
