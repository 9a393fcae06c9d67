import { Module } from '@nestjs/common';
import { RealtimeModule } from '../realtime/realtime.module';
import { RoomsController } from './rooms.controller';
import { RoomsService } from './rooms.service';
import { Feature } from '@media/platform';
import { ChatRoom } from './chat-room.entity';
import { ChatRoomMember } from './chat-room-member.entity';
import { ChatMessage } from './chat-message.entity';
import { CreateChat1764800000000 } from '../database/migrations/1764800000000-create-chat';
import { DeletedDocuments1764800000011 } from '../database/migrations/1764800000011-deleted-documents';

@Feature({
  entities: [ChatRoom, ChatRoomMember, ChatMessage],
  migrations: [CreateChat1764800000000, DeletedDocuments1764800000011],
})
@Module({
  imports: [RealtimeModule],
  controllers: [RoomsController],
  providers: [RoomsService],
  exports: [RoomsService],
})
export class ChatModule {}
