import { Module, type DynamicModule } from '@nestjs/common';
import { PlatformModule, type DatabaseParts } from '@media/platform';
import { ChatModule } from './chat/chat.module';
import type { ChatNotificationsConfig } from './config';
import { EventsModule } from './events/events.module';
import { NotificationsModule } from './notifications/notifications.module';
import { RealtimeModule } from './realtime/realtime.module';

@Module({})
export class ChatNotificationsModule {
  static forRoot(config: ChatNotificationsConfig, database: DatabaseParts): DynamicModule {
    return {
      module: ChatNotificationsModule,
      imports: [
        PlatformModule.forApp({ name: 'chat-notifications', config, database }),
        RealtimeModule,
        ChatModule,
        NotificationsModule,
        EventsModule,
      ],
    };
  }
}
