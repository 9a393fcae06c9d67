import { Module, type DynamicModule } from '@nestjs/common';
import { PlatformModule, type DatabaseParts } from '@media/platform';
import type { ChatNotificationsConfig } from './config';

@Module({})
export class ChatNotificationsModule {
  static forRoot(config: ChatNotificationsConfig, database: DatabaseParts): DynamicModule {
    return {
      module: ChatNotificationsModule,
      imports: [PlatformModule.forApp({ name: 'chat-notifications', config, database })],
    };
  }
}
