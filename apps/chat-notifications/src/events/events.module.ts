import { Module } from '@nestjs/common';
import { ChatModule } from '../chat/chat.module';
import { NotificationsModule } from '../notifications/notifications.module';
import { AppEventsConsumer } from './app-events.consumer';

@Module({
  imports: [ChatModule, NotificationsModule],
  providers: [AppEventsConsumer],
})
export class EventsModule {}
