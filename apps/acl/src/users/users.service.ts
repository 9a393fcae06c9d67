import { Inject, Injectable } from '@nestjs/common';
import { InjectDataSource } from '@nestjs/typeorm';
import type { Request } from 'express';
import type { ValidationIssue } from '@media/contracts';
import { changedRows } from '@media/kernel';
import { Conflict, NotFound, ValidationFailed } from '@media/core';
import { Paginator, type Page } from '@media/http';
import type { DataSource, EntityManager } from 'typeorm';
import { hashPassword } from '../credentials/passwords';
import { GroupMembershipsService } from '../groups/group-memberships.service';
import { TokenVersionsService } from '../sessions/token-versions.service';
import type { CreateUserDto } from './dto/create-user.dto';
import type { ListUsersQuery } from './dto/list-users.query';
import type { UpdateUserDto } from './dto/update-user.dto';
import { userConflict } from './user-conflict';
import { UserDirectoryService } from './user-directory.service';
import { User } from './user.entity';
import { toUserView, type UserView } from './user.view';
import { NEWEST_JOINED_FIRST } from './user-order';

const ADMIN_ROLE = 'ADMIN';

/**
 * Serialises the updates whose checks read other users' rows (manager chains, who is an active
 * ADMIN). Arbitrary constant, per database.
 */
const USER_GRAPH_LOCK = 0x61636c55;

interface References {
  roles?: string[];
  groups?: string[];
  manager_id?: string | null;
}

/** Managing users (docs/api/contract.md §4a, `users:admin`) and the caller's own profile. */
@Injectable()
export class UsersService {
  constructor(
    @InjectDataSource() private readonly dataSource: DataSource,
    @Inject(UserDirectoryService) private readonly directory: UserDirectoryService,
    @Inject(Paginator) private readonly paginator: Paginator,
    @Inject(GroupMembershipsService) private readonly memberships: GroupMembershipsService,
    @Inject(TokenVersionsService) private readonly tokenVersions: TokenVersionsService,
  ) {}

  /** The caller's profile: one query (UserDirectoryService), as any user's. */
  async me(userId: string): Promise<UserView> {
    return this.get(userId);
  }

  async get(rawId: string): Promise<UserView> {
    const id = rawId.toLowerCase();
    const loaded = await this.directory.loadOne(id);
    if (!loaded) throw new NotFound('User', id);
    return toUserView(loaded);
  }

  async list(query: ListUsersQuery, req: Request): Promise<Page<UserView>> {
    const qb = this.dataSource.getRepository(User).createQueryBuilder('u');
    if (query.status) qb.andWhere('u.status = :status', { status: query.status });
    if (query.role)
      qb.andWhere('EXISTS (SELECT 1 FROM user_roles ur WHERE ur.user_id = u.id AND ur.role_code = :role)', {
        role: query.role,
      });
    const page = await this.paginator.paginate(qb, NEWEST_JOINED_FIRST, query, req, (u) => u);
    const loaded = await this.directory.enrich(page.results);
    return { ...page, results: page.results.map((u) => toUserView(loaded.get(u.id)!)) };
  }

  async create(dto: CreateUserDto): Promise<UserView> {
    const roles = unique(dto.roles ?? []);
    const groups = uniqueIds(dto.groups ?? []);
    await this.checkReferences({ roles: dto.roles, groups: dto.groups, manager_id: dto.manager_id });
    const passwordHash = await hashPassword(dto.password);
    const id = await this.write(async (manager) => {
      const user = await manager.getRepository(User).save(
        manager.getRepository(User).create({
          email: dto.email,
          passwordHash,
          firstName: dto.first_name,
          lastName: dto.last_name,
          phoneNumber: dto.phone_number ?? null,
          employeeNumber: dto.employee_number ?? null,
          status: 'ACTIVE',
          managerId: dto.manager_id?.toLowerCase() ?? null,
          dateJoined: dto.date_joined ? new Date(dto.date_joined) : new Date(),
        }),
      );
      await this.replaceRoles(manager, user.id, roles);
      await this.memberships.setGroupsOf(manager, user.id, groups);
      return user.id;
    });
    return this.get(id);
  }

  /**
   * One transaction for the whole change, its checks included: the manager-loop check and the
   * last-administrator rule read what concurrent updates write, so they run under a
   * transaction-scoped advisory lock that every such update takes, and a racing pair is
   * serialised (the second sees the first's commit) instead of both passing their checks.
   */
  async update(rawId: string, dto: UpdateUserDto): Promise<UserView> {
    const id = rawId.toLowerCase();
    await this.write(async (manager) => {
      const touchesAdmins = dto.status !== undefined || dto.roles !== undefined;
      if (dto.manager_id !== undefined || touchesAdmins) {
        await manager.query(`SELECT pg_advisory_xact_lock($1)`, [USER_GRAPH_LOCK]);
      }
      await this.checkReferences(
        { roles: dto.roles, groups: dto.groups, manager_id: dto.manager_id },
        id,
        manager,
      );
      const repo = manager.getRepository(User);
      const user = await repo.findOne({ where: { id }, lock: { mode: 'pessimistic_write' } });
      if (!user) throw new NotFound('User', id);
      const [credential]: { has_password: boolean }[] = await manager.query(
        `SELECT password_hash IS NOT NULL AS has_password FROM users WHERE id = $1`,
        [id],
      );
      if (dto.status === 'ACTIVE' && user.status !== 'ACTIVE' && !credential.has_password) {
        throw new Conflict(
          'This user has not accepted the invitation yet; it becomes active by accepting it.',
          'invitation_pending',
        );
      }
      if (touchesAdmins) await this.keepAnAdmin(manager, user, dto);
      if (dto.first_name !== undefined) user.firstName = dto.first_name;
      if (dto.last_name !== undefined) user.lastName = dto.last_name;
      if (dto.phone_number !== undefined) user.phoneNumber = dto.phone_number;
      if (dto.employee_number !== undefined) user.employeeNumber = dto.employee_number;
      if (dto.manager_id !== undefined) user.managerId = dto.manager_id?.toLowerCase() ?? null;
      const disabling = dto.status === 'DISABLED' && user.status !== 'DISABLED';
      if (dto.status !== undefined) user.status = dto.status;
      await repo.save(user);
      const rolesTaken = dto.roles !== undefined && (await this.replaceRoles(manager, id, unique(dto.roles)));
      const groupsTaken =
        dto.groups !== undefined && (await this.memberships.setGroupsOf(manager, id, uniqueIds(dto.groups)));
      // What is taken away takes effect at once (docs/api/acl.md, revocation): the user's older
      // tokens are refused everywhere within seconds and the sessions end; a disabled user's do
      // not come back if the account is re-enabled.
      if (disabling || rolesTaken || groupsTaken) await this.tokenVersions.raise(manager, [id]);
    });
    return this.get(id);
  }

  /**
   * 409 `last_admin` when the change would leave no active user holding ADMIN: disabling the
   * last one, or taking the role from them. Runs under USER_GRAPH_LOCK (see update).
   */
  private async keepAnAdmin(manager: EntityManager, user: User, dto: UpdateUserDto): Promise<void> {
    const staysActive = (dto.status ?? user.status) === 'ACTIVE';
    const keepsRole = dto.roles === undefined || dto.roles.includes(ADMIN_ROLE);
    if (staysActive && keepsRole) return;
    const [row]: { is_admin: boolean; others: number }[] = await manager.query(
      `SELECT EXISTS (SELECT 1 FROM user_roles WHERE user_id = $1 AND role_code = $2) AND
              (SELECT status FROM users WHERE id = $1) = 'ACTIVE' AS is_admin,
              (SELECT count(*)::int FROM users u JOIN user_roles ur ON ur.user_id = u.id
                WHERE ur.role_code = $2 AND u.status = 'ACTIVE' AND u.id <> $1) AS others`,
      [user.id, ADMIN_ROLE],
    );
    if (row.is_admin && row.others === 0) {
      throw new Conflict(
        'This is the last active administrator; make another user an active ADMIN first.',
        'last_admin',
      );
    }
  }

  private async write<T>(work: (manager: EntityManager) => Promise<T>): Promise<T> {
    try {
      return await this.dataSource.transaction(work);
    } catch (error) {
      throw userConflict(error) ?? error;
    }
  }

  /** Makes `roles` the user's whole set; true when a role was taken away. */
  private async replaceRoles(manager: EntityManager, userId: string, roles: string[]): Promise<boolean> {
    const removed = changedRows(
      await manager.query(
        `DELETE FROM user_roles WHERE user_id = $1 AND NOT (role_code = ANY($2::text[])) RETURNING role_code`,
        [userId, roles],
      ),
    );
    await manager.query(
      `INSERT INTO user_roles (user_id, role_code) SELECT $1, unnest($2::text[]) ON CONFLICT DO NOTHING`,
      [userId, roles],
    );
    return removed.length > 0;
  }

  /**
   * Role codes, group ids and the manager must exist (422 at their own `loc`, array items by
   * index), and a manager may not be the user or report to the user, directly or not.
   */
  private async checkReferences(
    refs: References,
    self?: string,
    manager: EntityManager = this.dataSource.manager,
  ): Promise<void> {
    const issues: ValidationIssue[] = [];
    if (refs.roles?.length) {
      const rows: { code: string }[] = await manager.query(
        `SELECT code FROM roles ORDER BY code COLLATE "C"`,
      );
      const known = rows.map((r) => r.code);
      refs.roles.forEach((code, i) => {
        if (!known.includes(code))
          issues.push({
            loc: ['body', 'roles', String(i)],
            msg: `Input should be one of ${known.join(', ')}`,
            type: 'enum',
          });
      });
    }
    if (refs.groups?.length) {
      const known = await this.memberships.existing(uniqueIds(refs.groups), manager);
      refs.groups.forEach((id, i) => {
        if (!known.has(id.toLowerCase()))
          issues.push({
            loc: ['body', 'groups', String(i)],
            msg: `Group ${id} does not exist`,
            type: 'value_error',
          });
      });
    }
    if (refs.manager_id) {
      const problem = await this.managerProblem(manager, refs.manager_id.toLowerCase(), self);
      if (problem) issues.push({ loc: ['body', 'manager_id'], msg: problem, type: 'value_error' });
    }
    if (issues.length) throw new ValidationFailed(issues);
  }

  private async managerProblem(
    manager: EntityManager,
    managerId: string,
    self?: string,
  ): Promise<string | undefined> {
    if (managerId === self) return 'A user cannot be their own manager';
    // Walks up from the proposed manager; meeting the user on the way would close a loop.
    const chain: { id: string }[] = await manager.query(
      `WITH RECURSIVE chain AS (
         SELECT id, manager_id FROM users WHERE id = $1
         UNION
         SELECT u.id, u.manager_id FROM users u JOIN chain c ON u.id = c.manager_id
       ) SELECT id FROM chain`,
      [managerId],
    );
    if (chain.length === 0) return `User ${managerId} does not exist`;
    if (self && chain.some((row) => row.id === self))
      return 'This manager reports to the user; the change would make a loop';
    return undefined;
  }
}

function unique(values: string[]): string[] {
  return [...new Set(values)];
}

function uniqueIds(values: string[]): string[] {
  return unique(values.map((v) => v.toLowerCase()));
}
