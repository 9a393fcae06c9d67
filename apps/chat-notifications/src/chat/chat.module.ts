import { Module } from '@nestjs/common';
import { Feature } from '@media/platform';
import { CreateChat1764800000000 } from '../database/migrations/1764800000000-create-chat';
import { DeletedDocuments1764800000011 } from '../database/migrations/1764800000011-deleted-documents';
import { ChatMentionsEdits1764800000030 } from '../database/migrations/1764800000030-chat-mentions-edits';
import { NotificationsModule } from '../notifications/notifications.module';
import { RealtimeModule } from '../realtime/realtime.module';
import { ChatMessage } from './chat-message.entity';
import { ChatRoomMember } from './chat-room-member.entity';
import { ChatRoom } from './chat-room.entity';
import { MessagesController } from './messages.controller';
import { MessagesService } from './messages.service';
import { RoomMembersController } from './room-members.controller';
import { RoomMembersService } from './room-members.service';
import { RoomsController } from './rooms.controller';
import { RoomsService } from './rooms.service';
import { AuditTrailChatNotifications1764900000110 } from '../database/migrations/1764900000110-audit-trail';

@Feature({
  entities: [ChatRoom, ChatRoomMember, ChatMessage],
  migrations: [
    CreateChat1764800000000,
    DeletedDocuments1764800000011,
    ChatMentionsEdits1764800000030,
    AuditTrailChatNotifications1764900000110,
  ],
})
@Module({
  imports: [RealtimeModule, NotificationsModule],
  controllers: [RoomsController, RoomMembersController, MessagesController],
  providers: [RoomsService, RoomMembersService, MessagesService],
  exports: [RoomsService],
})
export class ChatModule {}
