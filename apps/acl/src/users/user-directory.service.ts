import { Inject, Injectable } from '@nestjs/common';
import { InjectDataSource } from '@nestjs/typeorm';
import { isUuid } from '@media/platform';
import { In, type DataSource, type EntityManager } from 'typeorm';
import { GroupMembershipsService } from '../groups/group-memberships.service';
import { effectivePermissions } from '../roles/role-permissions';
import { User } from './user.entity';
import type { LoadedUser } from './user.view';

/**
 * Loads users with their roles, effective permissions and groups: three queries for any number
 * of users, never one per user.
 */
@Injectable()
export class UserDirectoryService {
  constructor(
    @InjectDataSource() private readonly dataSource: DataSource,
    @Inject(GroupMembershipsService) private readonly memberships: GroupMembershipsService,
  ) {}

  /** The users among `ids` that exist, keyed by id (unknown and malformed ids are simply absent). */
  async load(
    ids: readonly string[],
    manager: EntityManager = this.dataSource.manager,
  ): Promise<Map<string, LoadedUser>> {
    const wanted = [...new Set(ids.filter(isUuid).map((id) => id.toLowerCase()))];
    if (wanted.length === 0) return new Map();
    const users = await manager.getRepository(User).findBy({ id: In(wanted) });
    return this.enrich(users, manager);
  }

  /** Adds roles, permissions and groups to rows already read (a page of a list). */
  async enrich(
    users: readonly User[],
    manager: EntityManager = this.dataSource.manager,
  ): Promise<Map<string, LoadedUser>> {
    const out = new Map<string, LoadedUser>();
    if (users.length === 0) return out;
    const ids = users.map((u) => u.id);
    const roleRows: { user_id: string; code: string; permissions: string[] }[] = await manager.query(
      `SELECT ur.user_id, r.code, r.permissions
         FROM user_roles ur JOIN roles r ON r.code = ur.role_code
        WHERE ur.user_id = ANY($1::uuid[])
        ORDER BY r.code COLLATE "C"`,
      [ids],
    );
    const groupRows = await this.memberships.groupsOf(ids, manager);
    for (const user of users) out.set(user.id, { user, roles: [], permissions: [], groups: [] });
    const rolesOf = new Map<string, { permissions: string[] }[]>();
    for (const row of roleRows) {
      out.get(row.user_id)?.roles.push(row.code);
      rolesOf.set(row.user_id, [...(rolesOf.get(row.user_id) ?? []), row]);
    }
    for (const row of groupRows) out.get(row.user_id)?.groups.push(row.group_id);
    for (const [id, loaded] of out) loaded.permissions = effectivePermissions(rolesOf.get(id) ?? []);
    return out;
  }
}
