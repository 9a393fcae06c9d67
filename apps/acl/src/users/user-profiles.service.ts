import { Inject, Injectable } from '@nestjs/common';
import { InjectDataSource } from '@nestjs/typeorm';
import type { AclSubjects, RpcReply, UserProfile } from '@media/contracts';
import { isUuid } from '@media/core';
import type { DataSource } from 'typeorm';
import { UserDirectoryService } from './user-directory.service';
import { User } from './user.entity';
import { toUserProfile } from './user.view';

/**
 * What other apps ask acl about users over NATS (docs/api/contract.md §5). Unknown or malformed ids are
 * simply absent (or `null` for a single lookup); replies never carry credentials.
 */
@Injectable()
export class UserProfilesService {
  constructor(
    @InjectDataSource() private readonly dataSource: DataSource,
    @Inject(UserDirectoryService) private readonly directory: UserDirectoryService,
  ) {}

  /** Profiles in the order of the ids asked for, each once. */
  async getMany(ids: string[]): Promise<UserProfile[]> {
    const loaded = await this.directory.profiles(ids);
    const seen = new Set<string>();
    const out: UserProfile[] = [];
    for (const raw of ids) {
      const id = raw.toLowerCase();
      const user = loaded.get(id);
      if (!user || seen.has(id)) continue;
      seen.add(id);
      out.push(toUserProfile(user));
    }
    return out;
  }

  /** Direct reports of a manager, by name (byte order) then id. */
  async reports(managerId: string): Promise<UserProfile[]> {
    if (!isUuid(managerId)) return [];
    const users = await this.dataSource
      .getRepository(User)
      .createQueryBuilder('u')
      .where('u.managerId = :managerId', { managerId: managerId.toLowerCase() })
      .orderBy('u.firstName COLLATE "C"', 'ASC', 'NULLS LAST')
      .addOrderBy('u.lastName COLLATE "C"', 'ASC', 'NULLS LAST')
      .addOrderBy('u.id', 'ASC')
      .getMany();
    const loaded = await this.directory.enrich(users);
    return users.map((u) => toUserProfile(loaded.get(u.id)!));
  }

  async exists(ids: string[], activeOnly: boolean): Promise<RpcReply<typeof AclSubjects.usersExists>> {
    const wanted = [...new Set(ids.filter(isUuid).map((id) => id.toLowerCase()))];
    if (wanted.length === 0) return { existing: [] };
    const rows: { id: string }[] = await this.dataSource.query(
      `SELECT id FROM users WHERE id = ANY($1::uuid[]) AND ($2::boolean IS FALSE OR status = 'ACTIVE')`,
      [wanted, activeOnly],
    );
    const found = new Set(rows.map((r) => r.id));
    return { existing: wanted.filter((id) => found.has(id)) };
  }

  async permissions(userId: string): Promise<RpcReply<typeof AclSubjects.usersPermissions>> {
    const loaded = await this.directory.loadOne(userId);
    if (!loaded) return null;
    return {
      user_id: loaded.user.id,
      status: loaded.user.status,
      roles: loaded.roles,
      permissions: loaded.permissions,
    };
  }

  /** ACTIVE users with `permission` (or `*`) through one of their roles, by id. */
  async holding(permission: string): Promise<RpcReply<typeof AclSubjects.usersHolding>> {
    const rows: { id: string }[] = await this.dataSource.query(
      `SELECT DISTINCT u.id FROM users u
         JOIN user_roles ur ON ur.user_id = u.id
         JOIN roles r ON r.code = ur.role_code
        WHERE u.status = 'ACTIVE' AND (r.permissions @> ARRAY[$1]::text[] OR r.permissions @> ARRAY['*']::text[])
        ORDER BY u.id`,
      [permission],
    );
    return { user_ids: rows.map((row) => row.id) };
  }
}
