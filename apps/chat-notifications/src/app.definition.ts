import type { AppDefinition } from '@media/platform';
import { ChatNotificationsModule } from './app.module';
import { ChatMessage, ChatRoom, ChatRoomMember } from './chat/chat.entities';
import { ChatNotificationsConfig } from './config';
import { migrations } from './database/migrations';
import { Notification, NotificationPreference } from './notifications/notification.entities';

const database = {
  entities: [ChatRoom, ChatRoomMember, ChatMessage, NotificationPreference, Notification],
  migrations,
};

/** How chat-notifications boots, alone or inside the embedded default. */
export const chatNotificationsApp: AppDefinition<ChatNotificationsConfig> = {
  name: 'chat-notifications',
  configClass: ChatNotificationsConfig,
  database,
  rootModule: (config) => ChatNotificationsModule.forRoot(config, database),
};
