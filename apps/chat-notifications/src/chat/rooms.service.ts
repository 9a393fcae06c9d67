import { Inject, Injectable } from '@nestjs/common';
import { InjectDataSource } from '@nestjs/typeorm';
import { ChatErrorCodes, type ValidationIssue } from '@media/contracts';
import { type AuthUser, Conflict, Forbidden, NotFound, ValidationFailed } from '@media/core';
import { changedRows } from '@media/kernel';
import { DeletedDocuments } from '@media/platform';
import { DocumentsClient } from '@media/app-clients';
import { newestFirst, type Page, Paginator } from '@media/http';
import { RpcClient } from '@media/messaging';
import type { Request } from 'express';
import type { DataSource, EntityManager } from 'typeorm';
import { ChatRoom } from './chat-room.entity';
import type { CreateRoomDto } from './dto/create-room.dto';
import type { ListRoomsQuery } from './dto/list-rooms.query';
import { ROOM_COUNTS_SQL } from './room-counts.sql';
import { findMembership, inactiveUserIssues, insertMembers } from './room-membership';
import {
  toMemberView,
  toRoomView,
  type MemberRow,
  type MemberView,
  type RoomCounts,
  type RoomRow,
  type RoomView,
} from './room.view';

/** Name and group of a DIRECT room, which belongs to no group. */
export const DIRECT_ROOM = { name: 'direct', group_id: 'direct' } as const;

/** Rooms: creation, direct rooms, reading, the read marker, deactivation (docs/api/contract.md §4.1). */
@Injectable()
export class RoomsService {
  constructor(
    @InjectDataSource() private readonly dataSource: DataSource,
    @Inject(Paginator) private readonly paginator: Paginator,
    @Inject(RpcClient) private readonly rpc: RpcClient,
    @Inject(DocumentsClient) private readonly documents: DocumentsClient,
    @Inject(DeletedDocuments) private readonly deletedDocuments: DeletedDocuments,
  ) {}

  async create(dto: CreateRoomDto, user: AuthUser): Promise<RoomView> {
    const memberIds = dto.member_ids ?? [];
    // Body checks that need other apps (422), in parallel; then group membership (403), per
    // docs/api/contract.md §1's order of checks.
    const [memberIssues, documentIssues] = await Promise.all([
      inactiveUserIssues(this.rpc, memberIds, user.id, ['body', 'member_ids']),
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
      await insertMembers(manager, room.id, [user.id], 'ADMIN');
      await insertMembers(manager, room.id, others, 'MEMBER');
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
    const issues = await inactiveUserIssues(this.rpc, [other], user.id, ['body', 'user_id'], true);
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
      await insertMembers(manager, rows[0].id, [user.id, other], 'ADMIN');
      return rows[0].id;
    });
    const roomId = inserted ?? (await this.directRoomId(key));
    if (!roomId) throw new Conflict('The direct room could not be created; retry.');
    return { created: inserted !== undefined, room: await this.view(roomId, user.id) };
  }

  async get(roomId: string, user: AuthUser): Promise<RoomView> {
    await findMembership(this.dataSource, roomId, user.id);
    return this.view(roomId.toLowerCase(), user.id);
  }

  async list(query: ListRoomsQuery, req: Request, user: AuthUser): Promise<Page<RoomView>> {
    const qb = this.dataSource
      .getRepository(ChatRoom)
      .createQueryBuilder('r')
      .innerJoin('chat_room_members', 'me', 'me.room_id = r.id AND me.user_id = :me', { me: user.id });
    const page = await this.paginator.paginate(
      qb,
      newestFirst('r.created_at', (r) => r.createdAt),
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

  async deactivate(roomId: string, user: AuthUser): Promise<RoomView> {
    const { room, role } = await findMembership(this.dataSource, roomId, user.id);
    if (role !== 'ADMIN') throw new Forbidden("Only the room's admins can deactivate it.");
    // In a transaction, as every audited change (its entry names the caller).
    await this.dataSource.transaction((manager) =>
      manager.query(
        `UPDATE chat_rooms SET is_active = false, updated_at = clock_timestamp() WHERE id = $1 AND is_active`,
        [room.id],
      ),
    );
    return this.view(room.id, user.id);
  }

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

  /** One room as `userId` sees it. */
  async view(roomId: string, userId: string): Promise<RoomView> {
    const views = await this.views([roomId], userId);
    const view = views.get(roomId);
    if (!view) throw new NotFound('Room', roomId);
    return view;
  }

  /**
   * Room views of a page in three queries, whatever the page size: rooms, their members, and
   * the caller's counts for all of them at once (ROOM_COUNTS_SQL).
   */
  private async views(roomIds: string[], userId: string): Promise<Map<string, RoomView>> {
    if (roomIds.length === 0) return new Map();
    const [rooms, members, counts] = await Promise.all([
      this.dataSource.query(`SELECT * FROM chat_rooms WHERE id = ANY($1::uuid[])`, [roomIds]) as Promise<
        RoomRow[]
      >,
      this.dataSource.query(
        `SELECT id, room_id, user_id, role, joined_at, last_read_at FROM chat_room_members
          WHERE room_id = ANY($1::uuid[]) ORDER BY room_id, joined_at, role <> 'ADMIN', id`,
        [roomIds],
      ) as Promise<MemberRow[]>,
      this.dataSource.query(ROOM_COUNTS_SQL, [userId, roomIds]) as Promise<
        (RoomCounts & { room_id: string })[]
      >,
    ]);
    const membersByRoom = new Map<string, MemberView[]>();
    for (const m of members) {
      const list = membersByRoom.get(m.room_id) ?? [];
      list.push(toMemberView(m));
      membersByRoom.set(m.room_id, list);
    }
    const countsByRoom = new Map(counts.map((c) => [c.room_id, c]));
    return new Map(
      rooms.map((r) => [r.id, toRoomView(r, membersByRoom.get(r.id) ?? [], countsByRoom.get(r.id))]),
    );
  }

  private async documentIssues(documentId: string | null): Promise<ValidationIssue[]> {
    if (!documentId) return [];
    const document = await this.documents.find(documentId);
    return document
      ? []
      : [{ loc: ['body', 'document_id'], msg: `Document ${documentId} does not exist`, type: 'value_error' }];
  }

  private async directRoomId(key: string): Promise<string | undefined> {
    const rows: { id: string }[] = await this.dataSource.query(
      `SELECT id FROM chat_rooms WHERE direct_key = $1`,
      [key],
    );
    return rows[0]?.id;
  }
}
