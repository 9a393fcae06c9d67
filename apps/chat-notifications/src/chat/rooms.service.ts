import { Inject, Injectable } from '@nestjs/common';
import { InjectDataSource } from '@nestjs/typeorm';
import {
  AclSubjects,
  ChatErrorCodes,
  ChatEvents,
  idPages,
  type ChatMessageCreatedEvent,
  type ValidationIssue,
} from '@media/contracts';
import {
  Conflict,
  DeletedDocuments,
  DocumentsClient,
  Forbidden,
  NotFound,
  Outbox,
  Paginator,
  RpcClient,
  ValidationFailed,
  type AuthUser,
  type Page,
} from '@media/platform';
import type { Request } from 'express';
import type { DataSource, EntityManager } from 'typeorm';
import { changedRows } from '../common/sql';
import { PushService } from '../realtime/push.service';
import { ChatMessage } from './chat-message.entity';
import { ChatRoom } from './chat-room.entity';
import { type MemberRole } from './chat-room-member.entity';
import type {
  AddMembersDto,
  CreateMessageDto,
  CreateRoomDto,
  ListMessagesQuery,
  ListRoomsQuery,
} from './dto/room.dto';
import type { MemberView, MessageView, RoomView } from './dto/room.response';

/** Name and group of a DIRECT room, which belongs to no group. */
export const DIRECT_ROOM = { name: 'direct', group_id: 'direct' } as const;

interface RoomRow {
  id: string;
  name: string;
  room_type: 'GROUP' | 'DIRECT';
  group_id: string;
  document_id: string | null;
  created_by: string;
  is_active: boolean;
  created_at: Date;
  updated_at: Date;
}

interface MemberRow {
  id: string;
  room_id: string;
  user_id: string;
  role: MemberRole;
  joined_at: Date;
  last_read_at: Date | null;
}

const iso = (d: Date | null) => (d ? d.toISOString() : null);

function messageView(m: ChatMessage): MessageView {
  return {
    id: m.id,
    room_id: m.roomId,
    sender: m.sender,
    body: m.body,
    created_at: m.createdAt.toISOString(),
  };
}

/** Rooms, members and messages (docs/api/contract.md §4.1). */
@Injectable()
export class RoomsService {
  constructor(
    @InjectDataSource() private readonly dataSource: DataSource,
    @Inject(Paginator) private readonly paginator: Paginator,
    @Inject(RpcClient) private readonly rpc: RpcClient,
    @Inject(Outbox) private readonly outbox: Outbox,
    @Inject(PushService) private readonly push: PushService,
    @Inject(DocumentsClient) private readonly documents: DocumentsClient,
    @Inject(DeletedDocuments) private readonly deletedDocuments: DeletedDocuments,
  ) {}

  // ------------------------------------------------------------------ rooms

  async create(dto: CreateRoomDto, user: AuthUser): Promise<RoomView> {
    const memberIds = dto.member_ids ?? [];
    // Body checks that need other apps (422), in parallel; then group membership (403), per
    // docs/api/contract.md §1's order of checks.
    const [memberIssues, documentIssues] = await Promise.all([
      this.memberIssues(memberIds, user.id, ['body', 'member_ids']),
      this.documentIssues(dto.document_id ?? null),
    ]);
    const issues = [...memberIssues, ...documentIssues];
    if (issues.length > 0) throw new ValidationFailed(issues);
    if (!user.groups.includes(dto.group_id)) {
      // Memberships come from the token (docs/api/contract.md §1): one granted since the login is not in it yet.
      throw new Forbidden(
        `You are not a member of group '${dto.group_id}' according to your token. ` +
          'Group memberships take effect at your next login.',
        ChatErrorCodes.notGroupMember,
      );
    }
    const others = [...new Set(memberIds.map((id) => id.toLowerCase()))].filter((id) => id !== user.id);
    const documentId = dto.document_id?.toLowerCase() ?? null;
    const roomId = await this.dataSource.transaction(async (manager) => {
      if (documentId) {
        // The deletion event takes the same lock: it waits for this room (then clears it), or
        // this insert sees its tombstone, however the two interleave.
        await this.deletedDocuments.keep(manager, documentId);
      }
      const [room]: { id: string }[] = await manager.query(
        `INSERT INTO chat_rooms (name, room_type, group_id, document_id, created_by)
         VALUES ($1, 'GROUP', $2, $3, $4) RETURNING id`,
        [dto.name, dto.group_id, documentId, user.id],
      );
      await this.insertMembers(manager, room.id, [user.id], 'ADMIN');
      await this.insertMembers(manager, room.id, others, 'MEMBER');
      return room.id;
    });
    return this.view(roomId, user.id);
  }

  /** The existing DIRECT room of the pair (`created` false), or a new one; race-safe. */
  async direct(otherId: string, user: AuthUser): Promise<{ created: boolean; room: RoomView }> {
    const other = otherId.toLowerCase();
    if (other === user.id) {
      throw ValidationFailed.at(['body', 'user_id'], 'A direct room needs another user', 'value_error');
    }
    const issues = await this.memberIssues([other], user.id, ['body', 'user_id'], true);
    if (issues.length > 0) throw new ValidationFailed(issues);
    const key = [user.id, other].sort().join(':');
    const existing = await this.directRoomId(key);
    if (existing) return { created: false, room: await this.view(existing, user.id) };
    const inserted = await this.dataSource.transaction(async (manager) => {
      // A concurrent creation of the same pair waits here on the unique index, then does nothing.
      const rows: { id: string }[] = await manager.query(
        `INSERT INTO chat_rooms (name, room_type, group_id, created_by, direct_key)
         VALUES ($1, 'DIRECT', $2, $3, $4)
         ON CONFLICT (direct_key) WHERE direct_key IS NOT NULL DO NOTHING RETURNING id`,
        [DIRECT_ROOM.name, DIRECT_ROOM.group_id, user.id, key],
      );
      if (rows.length === 0) return undefined;
      await this.insertMembers(manager, rows[0].id, [user.id, other], 'ADMIN');
      return rows[0].id;
    });
    const roomId = inserted ?? (await this.directRoomId(key));
    if (!roomId) throw new Conflict('The direct room could not be created; retry.');
    return { created: inserted !== undefined, room: await this.view(roomId, user.id) };
  }

  async get(roomId: string, user: AuthUser): Promise<RoomView> {
    await this.membership(roomId, user.id);
    return this.view(roomId.toLowerCase(), user.id);
  }

  async list(query: ListRoomsQuery, req: Request, user: AuthUser): Promise<Page<RoomView>> {
    const qb = this.dataSource
      .getRepository(ChatRoom)
      .createQueryBuilder('r')
      .innerJoin('chat_room_members', 'me', 'me.room_id = r.id AND me.user_id = :me', { me: user.id });
    const page = await this.paginator.paginate(
      qb,
      {
        columns: [
          { expression: 'r.created_at', direction: 'DESC', cast: 'timestamptz' },
          { expression: 'r.id', direction: 'DESC', cast: 'uuid' },
        ],
        key: (r) => [r.createdAt.toISOString(), r.id],
      },
      query,
      req,
      (r) => r,
    );
    const views = await this.views(
      page.results.map((r) => r.id),
      user.id,
    );
    return { ...page, results: page.results.map((r) => views.get(r.id)!) };
  }

  async markRead(roomId: string, user: AuthUser): Promise<RoomView> {
    // GREATEST: the marker only moves forward, whatever the order concurrent requests commit in.
    const result: unknown = await this.dataSource.query(
      `UPDATE chat_room_members
          SET last_read_at = GREATEST(COALESCE(last_read_at, '-infinity'), clock_timestamp())
        WHERE room_id = $1 AND user_id = $2 RETURNING id`,
      [roomId.toLowerCase(), user.id],
    );
    if (changedRows(result).length === 0) throw new NotFound('Room', roomId);
    return this.view(roomId.toLowerCase(), user.id);
  }

  async addMembers(roomId: string, dto: AddMembersDto, user: AuthUser): Promise<RoomView> {
    const issues = await this.memberIssues(dto.member_ids, user.id, ['body', 'member_ids']);
    if (issues.length > 0) throw new ValidationFailed(issues);
    const { room, role } = await this.membership(roomId, user.id);
    if (role !== 'ADMIN') throw new Forbidden("Only the room's admins can add members.");
    if (room.room_type === 'DIRECT')
      throw new Conflict('A direct room has exactly its two users.', ChatErrorCodes.roomIsDirect);
    if (!room.is_active) throw new Conflict('The room is inactive.', ChatErrorCodes.roomInactive);
    const ids = [...new Set(dto.member_ids.map((id) => id.toLowerCase()))];
    await this.dataSource.transaction(async (manager) => {
      await this.insertMembers(manager, room.id, ids, 'MEMBER');
      await manager.query(`UPDATE chat_rooms SET updated_at = clock_timestamp() WHERE id = $1`, [room.id]);
    });
    return this.view(room.id, user.id);
  }

  /** ADMINs remove anyone; any member may remove itself (leave). */
  async removeMember(roomId: string, memberId: string, user: AuthUser): Promise<RoomView> {
    const { room, role } = await this.membership(roomId, user.id);
    const target = memberId.toLowerCase();
    if (target !== user.id && role !== 'ADMIN')
      throw new Forbidden("Only the room's admins can remove members.");
    if (room.room_type === 'DIRECT')
      throw new Conflict('A direct room has exactly its two users.', ChatErrorCodes.roomIsDirect);
    const removed = await this.dataSource.transaction(async (manager) => {
      const result: unknown = await manager.query(
        `DELETE FROM chat_room_members WHERE room_id = $1 AND user_id = $2 RETURNING id`,
        [room.id, target],
      );
      if (changedRows(result).length === 0) return false;
      await manager.query(`UPDATE chat_rooms SET updated_at = clock_timestamp() WHERE id = $1`, [room.id]);
      return true;
    });
    if (!removed) throw new NotFound('Member', memberId);
    return this.view(room.id, user.id);
  }

  async deactivate(roomId: string, user: AuthUser): Promise<RoomView> {
    const { room, role } = await this.membership(roomId, user.id);
    if (role !== 'ADMIN') throw new Forbidden("Only the room's admins can deactivate it.");
    await this.dataSource.query(
      `UPDATE chat_rooms SET is_active = false, updated_at = clock_timestamp() WHERE id = $1 AND is_active`,
      [room.id],
    );
    return this.view(room.id, user.id);
  }

  // ------------------------------------------------------------------ messages

  async postMessage(roomId: string, dto: CreateMessageDto, user: AuthUser): Promise<MessageView> {
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
    const view = messageView(message);
    this.push.push(members, 'chat.message', view);
    return view;
  }

  async listMessages(
    roomId: string,
    query: ListMessagesQuery,
    req: Request,
    user: AuthUser,
  ): Promise<Page<MessageView>> {
    const { room } = await this.membership(roomId, user.id);
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
      messageView,
    );
  }

  // ------------------------------------------------------------------ documents

  /**
   * A deleted document leaves the rooms that named it (docs/api/contract.md §4.1); called in the
   * deletion event's transaction, the document locked and remembered by DeletedDocuments.
   */
  async forgetDocument(manager: EntityManager, documentId: string): Promise<void> {
    const document = documentId.toLowerCase();
    await manager.query(
      `UPDATE chat_rooms SET document_id = NULL, updated_at = clock_timestamp() WHERE document_id = $1`,
      [document],
    );
  }

  // ------------------------------------------------------------------ helpers

  /**
   * 422 items for ids that are not existing ACTIVE users, at their own index, found with one
   * `acl.users.get-many` request per `ACL_USERS_MAX_IDS` ids. The caller itself needs no check.
   */
  private async memberIssues(
    ids: string[],
    callerId: string,
    loc: string[],
    single = false,
  ): Promise<ValidationIssue[]> {
    const asked = [...new Set(ids.map((id) => id.toLowerCase()))].filter((id) => id !== callerId);
    if (asked.length === 0) return [];
    const pages = await Promise.all(
      idPages(asked).map((page) => this.rpc.send(AclSubjects.usersGetMany, { ids: page })),
    );
    const profiles = pages.flat();
    const active = new Set(profiles.filter((p) => p.status === 'ACTIVE').map((p) => p.id.toLowerCase()));
    const issues: ValidationIssue[] = [];
    ids.forEach((id, i) => {
      const lower = id.toLowerCase();
      if (lower === callerId || active.has(lower)) return;
      issues.push({
        loc: single ? loc : [...loc, String(i)],
        msg: `User ${id} does not exist or is not active`,
        type: 'value_error',
      });
    });
    return issues;
  }

  private async documentIssues(documentId: string | null): Promise<ValidationIssue[]> {
    if (!documentId) return [];
    const document = await this.documents.find(documentId);
    return document
      ? []
      : [{ loc: ['body', 'document_id'], msg: `Document ${documentId} does not exist`, type: 'value_error' }];
  }

  private async insertMembers(
    manager: EntityManager,
    roomId: string,
    userIds: string[],
    role: MemberRole,
  ): Promise<void> {
    if (userIds.length === 0) return;
    await manager.query(
      `INSERT INTO chat_room_members (room_id, user_id, role)
       SELECT $1, u, $3 FROM unnest($2::uuid[]) AS u
       ON CONFLICT (room_id, user_id) DO NOTHING`,
      [roomId, userIds, role],
    );
  }

  private async directRoomId(key: string): Promise<string | undefined> {
    const rows: { id: string }[] = await this.dataSource.query(
      `SELECT id FROM chat_rooms WHERE direct_key = $1`,
      [key],
    );
    return rows[0]?.id;
  }

  /** The room and the caller's role in it; 404 for a non-member (never a leak). */
  private async membership(roomId: string, userId: string): Promise<{ room: RoomRow; role: MemberRole }> {
    const rows: (RoomRow & { role: MemberRole })[] = await this.dataSource.query(
      `SELECT r.*, m.role FROM chat_rooms r JOIN chat_room_members m ON m.room_id = r.id AND m.user_id = $2
        WHERE r.id = $1`,
      [roomId.toLowerCase(), userId],
    );
    if (rows.length === 0) throw new NotFound('Room', roomId);
    return { room: rows[0], role: rows[0].role };
  }

  private async view(roomId: string, userId: string): Promise<RoomView> {
    const views = await this.views([roomId], userId);
    const view = views.get(roomId);
    if (!view) throw new NotFound('Room', roomId);
    return view;
  }

  /**
   * Room views of a page in three queries, whatever the page size: rooms, their members, and
   * the caller's unread counts for all of them at once (docs/api/contract.md §4.1: messages by others after
   * the caller's `last_read_at`), each count an index range on chat_messages (room_id, created_at).
   */
  private async views(roomIds: string[], userId: string): Promise<Map<string, RoomView>> {
    if (roomIds.length === 0) return new Map();
    const [rooms, members, unread] = await Promise.all([
      this.dataSource.query(`SELECT * FROM chat_rooms WHERE id = ANY($1::uuid[])`, [roomIds]) as Promise<
        RoomRow[]
      >,
      this.dataSource.query(
        `SELECT id, room_id, user_id, role, joined_at, last_read_at FROM chat_room_members
          WHERE room_id = ANY($1::uuid[]) ORDER BY room_id, joined_at, id`,
        [roomIds],
      ) as Promise<MemberRow[]>,
      this.dataSource.query(UNREAD_COUNTS_SQL, [userId, roomIds]) as Promise<
        { room_id: string; unread: string }[]
      >,
    ]);
    const membersByRoom = new Map<string, MemberView[]>();
    for (const m of members) {
      const list = membersByRoom.get(m.room_id) ?? [];
      list.push({
        id: m.id,
        user: m.user_id,
        role: m.role,
        joined_at: m.joined_at.toISOString(),
        last_read_at: iso(m.last_read_at),
      });
      membersByRoom.set(m.room_id, list);
    }
    const unreadByRoom = new Map(unread.map((u) => [u.room_id, u.unread]));
    return new Map(
      rooms.map((r) => [
        r.id,
        {
          id: r.id,
          name: r.name,
          room_type: r.room_type,
          group_id: r.group_id,
          document_id: r.document_id,
          created_by: r.created_by,
          is_active: r.is_active,
          members: membersByRoom.get(r.id) ?? [],
          unread_count: unreadByRoom.get(r.id) ?? '0',
          created_at: r.created_at.toISOString(),
          updated_at: r.updated_at.toISOString(),
        },
      ]),
    );
  }
}

/** The caller's unread count of each listed room, in one statement ($1 caller, $2 room ids). */
export const UNREAD_COUNTS_SQL = `
  SELECT m.room_id,
         (SELECT count(*) FROM chat_messages msg
           WHERE msg.room_id = m.room_id
             AND msg.created_at > COALESCE(m.last_read_at, '-infinity')
             AND msg.sender <> m.user_id)::text AS unread
    FROM chat_room_members m
   WHERE m.user_id = $1 AND m.room_id = ANY($2::uuid[])`;
