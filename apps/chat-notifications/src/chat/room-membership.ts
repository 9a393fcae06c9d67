import { AclSubjects, idPages, type ValidationIssue } from '@media/contracts';
import { NotFound } from '@media/core';
import type { RpcClient } from '@media/messaging';
import type { DataSource, EntityManager } from 'typeorm';
import type { MemberRole } from './chat-room-member.entity';
import type { RoomRow } from './room.view';

/**
 * 422 items for ids that are not existing ACTIVE users, at their own index, found with one
 * `acl.users.get-many` request per `ACL_USERS_MAX_IDS` ids. The caller itself needs no check.
 */
export async function inactiveUserIssues(
  rpc: RpcClient,
  ids: string[],
  callerId: string,
  loc: string[],
  single = false,
): Promise<ValidationIssue[]> {
  const asked = [...new Set(ids.map((id) => id.toLowerCase()))].filter((id) => id !== callerId);
  if (asked.length === 0) return [];
  const pages = await Promise.all(
    idPages(asked).map((page) => rpc.send(AclSubjects.usersGetMany, { ids: page })),
  );
  const active = new Set(
    pages
      .flat()
      .filter((p) => p.status === 'ACTIVE')
      .map((p) => p.id.toLowerCase()),
  );
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

/** Adds the users to the room with `role`; those already in it keep their membership. */
export async function insertMembers(
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

/** The room and the caller's role in it; 404 for a non-member, exactly as for an unknown room. */
export async function findMembership(
  db: DataSource | EntityManager,
  roomId: string,
  userId: string,
): Promise<{ room: RoomRow; role: MemberRole }> {
  const rows: (RoomRow & { role: MemberRole })[] = await db.query(
    `SELECT r.*, m.role FROM chat_rooms r JOIN chat_room_members m ON m.room_id = r.id AND m.user_id = $2
      WHERE r.id = $1`,
    [roomId.toLowerCase(), userId],
  );
  if (rows.length === 0) throw new NotFound('Room', roomId);
  return { room: rows[0], role: rows[0].role };
}

/** 422 items for mentioned ids that are not members of the room, at their own index. */
export function mentionIssues(mentions: string[], members: Set<string>): ValidationIssue[] {
  const issues: ValidationIssue[] = [];
  mentions.forEach((id, i) => {
    if (members.has(id.toLowerCase())) return;
    issues.push({
      loc: ['body', 'mentions', String(i)],
      msg: `User ${id} is not a member of the room`,
      type: 'value_error',
    });
  });
  return issues;
}
