import { Module } from '@nestjs/common';
import { ChatModule } from '../chat/chat.module';
import { NotificationsModule } from '../notifications/notifications.module';
import { AppEventsConsumer } from './app-events.consumer';
import { Feature } from '@media/platform';

/** Owns no table. */
@Feature({})
@Module({
  imports: [ChatModule, NotificationsModule],
  providers: [AppEventsConsumer],
})
export class EventsModule {}
