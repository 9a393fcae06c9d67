import { Inject, Injectable } from '@nestjs/common';
import { InjectDataSource } from '@nestjs/typeorm';
import { ChatErrorCodes, ChatEvents, type ChatMessageCreatedEvent } from '@media/contracts';
import { Conflict, NotFound, Outbox, Paginator, type AuthUser, type Page } from '@media/platform';
import type { Request } from 'express';
import type { DataSource } from 'typeorm';
import { PushService } from '../realtime/push.service';
import { ChatMessage } from './chat-message.entity';
import type { CreateMessageDto } from './dto/create-message.dto';
import type { ListMessagesQuery } from './dto/list-messages.query';
import { toMessageView, type MessageView } from './message.view';
import { findMembership } from './room-membership';
import type { RoomRow } from './room.view';

/** A room's messages: posting and reading (docs/api/contract.md §4.1). */
@Injectable()
export class MessagesService {
  constructor(
    @InjectDataSource() private readonly dataSource: DataSource,
    @Inject(Paginator) private readonly paginator: Paginator,
    @Inject(Outbox) private readonly outbox: Outbox,
    @Inject(PushService) private readonly push: PushService,
  ) {}

  async post(roomId: string, dto: CreateMessageDto, user: AuthUser): Promise<MessageView> {
    const id = roomId.toLowerCase();
    const { message, members } = await this.dataSource.transaction(async (manager) => {
      // FOR SHARE: a deactivation (UPDATE) and a post are serialised, so no message lands after it.
      const rooms: (RoomRow & { member: boolean })[] = await manager.query(
        `SELECT r.*, EXISTS (SELECT 1 FROM chat_room_members m WHERE m.room_id = r.id AND m.user_id = $2) AS member
           FROM chat_rooms r WHERE r.id = $1 FOR SHARE`,
        [id, user.id],
      );
      const room = rooms[0];
      if (!room?.member) throw new NotFound('Room', roomId);
      if (!room.is_active)
        throw new Conflict('The room is inactive; it takes no new messages.', ChatErrorCodes.roomInactive);
      const [row]: { id: string; created_at: Date }[] = await manager.query(
        `INSERT INTO chat_messages (room_id, sender, body) VALUES ($1, $2, $3) RETURNING id, created_at`,
        [id, user.id, dto.body],
      );
      const saved = Object.assign(new ChatMessage(), {
        id: row.id,
        roomId: id,
        sender: user.id,
        body: dto.body,
        createdAt: row.created_at,
      });
      const memberRows: { user_id: string }[] = await manager.query(
        `SELECT user_id FROM chat_room_members WHERE room_id = $1`,
        [id],
      );
      const memberIds = memberRows.map((m) => m.user_id);
      const event: ChatMessageCreatedEvent = {
        message_id: saved.id,
        room_id: id,
        room_name: room.name,
        sender: user.id,
        body: saved.body,
        created_at: saved.createdAt.toISOString(),
        recipient_ids: memberIds.filter((m) => m !== user.id),
      };
      await this.outbox.enqueue(manager, ChatEvents.messageCreated, event);
      return { message: saved, members: memberIds };
    });
    const view = toMessageView(message);
    this.push.push(members, 'chat.message', view);
    return view;
  }

  async list(
    roomId: string,
    query: ListMessagesQuery,
    req: Request,
    user: AuthUser,
  ): Promise<Page<MessageView>> {
    const { room } = await findMembership(this.dataSource, roomId, user.id);
    const qb = this.dataSource
      .getRepository(ChatMessage)
      .createQueryBuilder('m')
      .where('m.room_id = :room', { room: room.id });
    return this.paginator.paginate(
      qb,
      {
        columns: [
          { expression: 'm.created_at', direction: 'DESC', cast: 'timestamptz' },
          { expression: 'm.id', direction: 'DESC', cast: 'uuid' },
        ],
        key: (m) => [m.createdAt.toISOString(), m.id],
      },
      query,
      req,
      toMessageView,
    );
  }
}
