import type { AppDefinition } from '@media/platform';
import { ChatNotificationsModule } from './app.module';
import { ChatNotificationsConfig } from './config';
import { migrations } from './database/migrations';

const database = { entities: [], migrations };

/** How chat-notifications boots, alone or inside the embedded default. */
export const chatNotificationsApp: AppDefinition<ChatNotificationsConfig> = {
  name: 'chat-notifications',
  configClass: ChatNotificationsConfig,
  database,
  rootModule: (config) => ChatNotificationsModule.forRoot(config, database),
};
