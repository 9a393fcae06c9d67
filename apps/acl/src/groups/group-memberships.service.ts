import { Injectable } from '@nestjs/common';
import { InjectDataSource } from '@nestjs/typeorm';
import { AclSubjects, type RpcReply } from '@media/contracts';
import type { DataSource, EntityManager } from 'typeorm';
import { changedRows } from '@media/kernel';
import { isUuid } from '@media/core';

/**
 * Group membership as the rest of acl uses it: users sets a user's groups through here (groups
 * owns `groups` and `group_members`), and other apps ask for a group's members. Methods taking a
 * manager run in the caller's transaction.
 */
@Injectable()
export class GroupMembershipsService {
  constructor(@InjectDataSource() private readonly dataSource: DataSource) {}

  /** The ids among `ids` (lowercase) that are groups. */
  async existing(
    ids: readonly string[],
    manager: EntityManager = this.dataSource.manager,
  ): Promise<Set<string>> {
    const rows: { id: string }[] = await manager.query(`SELECT id FROM groups WHERE id = ANY($1::uuid[])`, [
      ids,
    ]);
    return new Set(rows.map((r) => r.id));
  }

  /**
   * Makes `groupIds` (lowercase, each once) the user's whole set of groups, in two statements;
   * true when a group was taken away.
   */
  async setGroupsOf(manager: EntityManager, userId: string, groupIds: readonly string[]): Promise<boolean> {
    const removed = changedRows(
      await manager.query(
        `DELETE FROM group_members WHERE user_id = $1 AND NOT (group_id = ANY($2::uuid[])) RETURNING group_id`,
        [userId, groupIds],
      ),
    );
    await manager.query(
      `INSERT INTO group_members (group_id, user_id) SELECT unnest($2::uuid[]), $1 ON CONFLICT DO NOTHING`,
      [userId, groupIds],
    );
    return removed.length > 0;
  }

  /** A group's member ids in order, or null for an unknown (or malformed) group id: one query. */
  async members(groupId: string): Promise<RpcReply<typeof AclSubjects.groupsMembers>> {
    if (!isUuid(groupId)) return null;
    const id = groupId.toLowerCase();
    const rows: { user_id: string | null }[] = await this.dataSource.query(
      `SELECT m.user_id FROM groups g LEFT JOIN group_members m ON m.group_id = g.id WHERE g.id = $1 ORDER BY m.user_id`,
      [id],
    );
    if (rows.length === 0) return null;
    return { group_id: id, user_ids: rows.flatMap((r) => (r.user_id ? [r.user_id] : [])) };
  }
}
