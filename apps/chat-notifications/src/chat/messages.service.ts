import { Inject, Injectable } from '@nestjs/common';
import { InjectDataSource } from '@nestjs/typeorm';
import {
  CHAT_MENTION_NOTIFICATION,
  ChatErrorCodes,
  ChatEvents,
  type ChatMessageCreatedEvent,
  type PushEnvelope,
  type PushEventName,
} from '@media/contracts';
import { type AuthUser, Conflict, Forbidden, NotFound, ValidationFailed } from '@media/core';
import { changedRows, InjectConfig } from '@media/kernel';
import { newestFirst, type Page, Paginator } from '@media/http';
import { Outbox } from '@media/messaging';
import { withAudit } from '@media/platform';
import type { Request } from 'express';
import type { DataSource, EntityManager } from 'typeorm';
import type { ChatNotificationsConfig } from '../config';
import { NotifierService } from '../notifications/notifier.service';
import { FramesService } from '../realtime/frames.service';
import { PushService } from '../realtime/push.service';
import { ChatMessage } from './chat-message.entity';
import type { CreateMessageDto } from './dto/create-message.dto';
import type { ListMessagesQuery } from './dto/list-messages.query';
import type { UpdateMessageDto } from './dto/update-message.dto';
import { rowToMessageView, toMessageView, type MessageRow, type MessageView } from './message.view';
import { findMembership, mentionIssues } from './room-membership';
import type { RoomRow } from './room.view';

/** Preview length of a message in a notification. */
const PREVIEW = 200;
const preview = (body: string) => (body.length > PREVIEW ? `${body.slice(0, PREVIEW)}…` : body);

/** A message locked for a change, with whether its sender's edit window is still open. */
type LockedMessage = MessageRow & { within_window: boolean };

/**
 * A room's messages: posting (with mentions), reading, editing and deleting
 * (docs/api/contract.md §4.1, §7.4). Every change's frame for the room's members is recorded in
 * its transaction and pushed once it committed.
 */
@Injectable()
export class MessagesService {
  constructor(
    @InjectDataSource() private readonly dataSource: DataSource,
    @Inject(Paginator) private readonly paginator: Paginator,
    @Inject(Outbox) private readonly outbox: Outbox,
    @Inject(PushService) private readonly push: PushService,
    @Inject(FramesService) private readonly frames: FramesService,
    @Inject(NotifierService) private readonly notifier: NotifierService,
    @InjectConfig() private readonly config: ChatNotificationsConfig,
  ) {}

  async post(roomId: string, dto: CreateMessageDto, user: AuthUser): Promise<MessageView> {
    const id = roomId.toLowerCase();
    const mentions = (dto.mentions ?? []).map((m) => m.toLowerCase());
    const { message, frames } = await this.dataSource.transaction(async (manager) => {
      // FOR SHARE: a deactivation (UPDATE) and a post are serialised, so no message lands after it.
      const rooms: (RoomRow & { member: boolean })[] = await manager.query(
        `SELECT r.*, EXISTS (SELECT 1 FROM chat_room_members m WHERE m.room_id = r.id AND m.user_id = $2) AS member
           FROM chat_rooms r WHERE r.id = $1 FOR SHARE`,
        [id, user.id],
      );
      const room = rooms[0];
      if (!room?.member) throw new NotFound('Room', roomId);
      const memberRows: { user_id: string }[] = await manager.query(
        `SELECT user_id FROM chat_room_members WHERE room_id = $1`,
        [id],
      );
      const memberIds = memberRows.map((m) => m.user_id);
      const issues = mentionIssues(dto.mentions ?? [], new Set(memberIds));
      if (issues.length > 0) throw new ValidationFailed(issues);
      if (!room.is_active)
        throw new Conflict('The room is inactive; it takes no new messages.', ChatErrorCodes.roomInactive);
      const [row]: MessageRow[] = await manager.query(
        `INSERT INTO chat_messages (room_id, sender, body, mentions) VALUES ($1, $2, $3, $4::uuid[]) RETURNING *`,
        [id, user.id, dto.body, mentions],
      );
      const mentioned = mentions.filter((m) => m !== user.id);
      await this.recordMentions(manager, row, room, mentioned);
      const event: ChatMessageCreatedEvent = {
        message_id: row.id,
        room_id: id,
        room_name: room.name,
        sender: user.id,
        body: dto.body,
        created_at: row.created_at.toISOString(),
        recipient_ids: memberIds.filter((m) => m !== user.id),
      };
      await this.outbox.enqueue(manager, ChatEvents.messageCreated, event);
      const frames = await this.frames.record(manager, [
        { userIds: memberIds, event: 'chat.message', data: rowToMessageView(row) },
      ]);
      return { message: row, frames };
    });
    this.push.publish(frames);
    return rowToMessageView(message);
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
      newestFirst('m.created_at', (m) => m.createdAt),
      query,
      req,
      toMessageView,
    );
  }

  /**
   * A new body by the sender within the edit window; `edited_at` is set, `mentions` stay.
   * The message row is locked, so an edit and a deletion of it are serialised: whichever comes
   * second sees the first's result (an edit after a deletion is 409 `message_deleted`).
   */
  async edit(roomId: string, messageId: string, dto: UpdateMessageDto, user: AuthUser): Promise<MessageView> {
    const { row, frames } = await this.dataSource.transaction(async (manager) => {
      const { room } = await findMembership(manager, roomId, user.id);
      const message = await this.lock(manager, room.id, messageId);
      if (message.sender !== user.id) throw new Forbidden('Only its sender can edit a message.');
      if (message.deleted_at) throw new Conflict('The message was deleted.', ChatErrorCodes.messageDeleted);
      if (!message.within_window) throw this.windowClosed();
      const [updated] = changedRows<MessageRow>(
        await manager.query(
          `UPDATE chat_messages SET body = $2, edited_at = clock_timestamp() WHERE id = $1 RETURNING *`,
          [message.id, dto.body],
        ),
      );
      return { row: updated, frames: await this.announce(manager, room.id, 'chat.message.updated', updated) };
    });
    this.push.publish(frames);
    return rowToMessageView(row);
  }

  /**
   * Leaves a tombstone (body null, `deleted_at` set) that no longer counts as unread or as a
   * mention: by the sender within the edit window, or by an ADMIN of a GROUP room at any time.
   * Deleting a deleted message changes nothing (and pushes nothing).
   */
  async delete(roomId: string, messageId: string, user: AuthUser): Promise<void> {
    // The soft delete (body cleared, deleted_at set) is the message's deletion in its audit trail.
    const done = await withAudit({ actions: { message: 'message.deleted' } }, () =>
      this.deleteNow(roomId, messageId, user),
    );
    if (done) this.push.publish(done);
  }

  private async deleteNow(roomId: string, messageId: string, user: AuthUser) {
    return this.dataSource.transaction(async (manager) => {
      const { room, role } = await findMembership(manager, roomId, user.id);
      const message = await this.lock(manager, room.id, messageId);
      const moderator = room.room_type === 'GROUP' && role === 'ADMIN';
      if (message.sender !== user.id && !moderator)
        throw new Forbidden(
          room.room_type === 'DIRECT'
            ? 'Only its sender can delete a message in a direct room.'
            : "Only its sender or the room's admins can delete a message.",
        );
      if (message.deleted_at) return undefined;
      if (!moderator && !message.within_window) throw this.windowClosed();
      const [deleted] = changedRows<MessageRow>(
        await manager.query(
          `UPDATE chat_messages SET body = NULL, deleted_at = clock_timestamp() WHERE id = $1 RETURNING *`,
          [message.id],
        ),
      );
      await manager.query(`DELETE FROM chat_mentions WHERE message_id = $1`, [message.id]);
      return this.announce(manager, room.id, 'chat.message.deleted', deleted);
    });
  }

  /** The message of the room, locked for this transaction; 404 when the room has no such message. */
  private async lock(manager: EntityManager, roomId: string, messageId: string): Promise<LockedMessage> {
    const rows: LockedMessage[] = await manager.query(
      `SELECT *, created_at > clock_timestamp() - $3 * interval '1 millisecond' AS within_window
         FROM chat_messages WHERE id = $1 AND room_id = $2 FOR UPDATE`,
      [messageId.toLowerCase(), roomId, this.config.chat.editWindow],
    );
    if (rows.length === 0) throw new NotFound('Message', messageId);
    return rows[0];
  }

  private windowClosed(): Conflict {
    return new Conflict(
      `A message can be changed by its sender for ${Math.round(this.config.chat.editWindow / 1000)} s after it was posted.`,
      ChatErrorCodes.editWindowClosed,
    );
  }

  /**
   * The mention rows the counts read, and one `chat.mention` notification (HIGH) per mentioned
   * member, in the post's transaction.
   */
  private async recordMentions(
    manager: EntityManager,
    message: MessageRow,
    room: RoomRow,
    mentioned: string[],
  ): Promise<void> {
    if (mentioned.length === 0) return;
    await manager.query(
      `INSERT INTO chat_mentions (user_id, room_id, created_at, message_id)
       SELECT u, $2, $3, $4 FROM unnest($1::uuid[]) AS u`,
      [mentioned, message.room_id, message.created_at, message.id],
    );
    await this.notifier.notify(manager, {
      recipient_ids: mentioned,
      notification_type: CHAT_MENTION_NOTIFICATION,
      title:
        room.room_type === 'DIRECT'
          ? 'You were mentioned in a direct message'
          : `You were mentioned in ${room.name}`,
      body: preview(message.body ?? ''),
      data: { room_id: message.room_id, message_id: message.id, sender: message.sender },
      priority: 'HIGH',
    });
  }

  /** The change's frame for every member of the room, recorded in its transaction. */
  private async announce(
    manager: EntityManager,
    roomId: string,
    event: PushEventName,
    row: MessageRow,
  ): Promise<PushEnvelope[]> {
    const rows: { user_id: string }[] = await manager.query(
      `SELECT user_id FROM chat_room_members WHERE room_id = $1`,
      [roomId],
    );
    return this.frames.record(manager, [
      { userIds: rows.map((r) => r.user_id), event, data: rowToMessageView(row) },
    ]);
  }
}
