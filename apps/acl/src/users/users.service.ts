import { Inject, Injectable } from '@nestjs/common';
import { InjectDataSource } from '@nestjs/typeorm';
import type { Request } from 'express';
import type { ValidationIssue } from '@media/contracts';
import { Conflict, NotFound, Paginator, ValidationFailed, type Page } from '@media/platform';
import type { DataSource, EntityManager } from 'typeorm';
import { hashPassword } from '../auth/passwords';
import { uniqueViolation } from '../database/errors';
import type { CreateUserDto } from './dto/create-user.dto';
import type { ListUsersQuery } from './dto/list-users.query';
import type { UpdateUserDto } from './dto/update-user.dto';
import { UserDirectory } from './user-directory.service';
import { User } from './user.entity';
import { toUserView, type UserView } from './user-view';
import { NEWEST_JOINED_FIRST } from './user-order';

/** Maps a unique index hit on users to the 409 a client can act on. */
export function userConflict(error: unknown): Conflict | undefined {
  const index = uniqueViolation(error);
  if (index === 'users_email_key')
    return new Conflict('A user with this email already exists.', 'email_taken');
  if (index === 'users_employee_number_key')
    return new Conflict('A user with this employee number already exists.', 'employee_number_taken');
  return undefined;
}

interface References {
  roles?: string[];
  groups?: string[];
  manager_id?: string | null;
}

/** Managing users (CONTRACT §4a, `users:admin`) and the caller's own profile. */
@Injectable()
export class UsersService {
  constructor(
    @InjectDataSource() private readonly dataSource: DataSource,
    @Inject(UserDirectory) private readonly directory: UserDirectory,
    @Inject(Paginator) private readonly paginator: Paginator,
  ) {}

  async me(userId: string): Promise<UserView> {
    return this.get(userId);
  }

  async get(rawId: string): Promise<UserView> {
    const id = rawId.toLowerCase();
    const loaded = (await this.directory.load([id])).get(id);
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
      await this.replaceGroups(manager, user.id, groups);
      return user.id;
    });
    return this.get(id);
  }

  async update(rawId: string, dto: UpdateUserDto): Promise<UserView> {
    const id = rawId.toLowerCase();
    await this.checkReferences({ roles: dto.roles, groups: dto.groups, manager_id: dto.manager_id }, id);
    await this.write(async (manager) => {
      const repo = manager.getRepository(User);
      const user = await repo.findOne({ where: { id }, lock: { mode: 'pessimistic_write' } });
      if (!user) throw new NotFound('User', id);
      if (dto.status === 'ACTIVE' && user.status !== 'ACTIVE' && !user.passwordHash) {
        throw new Conflict(
          'This user has not accepted the invitation yet; it becomes active by accepting it.',
          'invitation_pending',
        );
      }
      if (dto.first_name !== undefined) user.firstName = dto.first_name;
      if (dto.last_name !== undefined) user.lastName = dto.last_name;
      if (dto.phone_number !== undefined) user.phoneNumber = dto.phone_number;
      if (dto.employee_number !== undefined) user.employeeNumber = dto.employee_number;
      if (dto.manager_id !== undefined) user.managerId = dto.manager_id?.toLowerCase() ?? null;
      const disabling = dto.status === 'DISABLED' && user.status !== 'DISABLED';
      if (dto.status !== undefined) user.status = dto.status;
      await repo.save(user);
      // A disabled user's sessions end now, and do not come back if the account is re-enabled.
      if (disabling) {
        await manager.query(
          `UPDATE refresh_tokens SET revoked_at = now() WHERE user_id = $1 AND revoked_at IS NULL`,
          [id],
        );
      }
      if (dto.roles !== undefined) await this.replaceRoles(manager, id, unique(dto.roles));
      if (dto.groups !== undefined) await this.replaceGroups(manager, id, uniqueIds(dto.groups));
    });
    return this.get(id);
  }

  private async write<T>(work: (manager: EntityManager) => Promise<T>): Promise<T> {
    try {
      return await this.dataSource.transaction(work);
    } catch (error) {
      throw userConflict(error) ?? error;
    }
  }

  private async replaceRoles(manager: EntityManager, userId: string, roles: string[]): Promise<void> {
    await manager.query(`DELETE FROM user_roles WHERE user_id = $1 AND NOT (role_code = ANY($2::text[]))`, [
      userId,
      roles,
    ]);
    await manager.query(
      `INSERT INTO user_roles (user_id, role_code) SELECT $1, unnest($2::text[]) ON CONFLICT DO NOTHING`,
      [userId, roles],
    );
  }

  private async replaceGroups(manager: EntityManager, userId: string, groups: string[]): Promise<void> {
    await manager.query(`DELETE FROM group_members WHERE user_id = $1 AND NOT (group_id = ANY($2::uuid[]))`, [
      userId,
      groups,
    ]);
    await manager.query(
      `INSERT INTO group_members (group_id, user_id) SELECT unnest($2::uuid[]), $1 ON CONFLICT DO NOTHING`,
      [userId, groups],
    );
  }

  /**
   * Role codes, group ids and the manager must exist (422 at their own `loc`, array items by
   * index), and a manager may not be the user or report to the user, directly or not.
   */
  private async checkReferences(refs: References, self?: string): Promise<void> {
    const issues: ValidationIssue[] = [];
    if (refs.roles?.length) {
      const rows: { code: string }[] = await this.dataSource.query(
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
      const rows: { id: string }[] = await this.dataSource.query(
        `SELECT id FROM groups WHERE id = ANY($1::uuid[])`,
        [uniqueIds(refs.groups)],
      );
      const known = new Set(rows.map((r) => r.id));
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
      const manager = refs.manager_id.toLowerCase();
      const problem = await this.managerProblem(manager, self);
      if (problem) issues.push({ loc: ['body', 'manager_id'], msg: problem, type: 'value_error' });
    }
    if (issues.length) throw new ValidationFailed(issues);
  }

  private async managerProblem(managerId: string, self?: string): Promise<string | undefined> {
    if (managerId === self) return 'A user cannot be their own manager';
    // Walks up from the proposed manager; meeting the user on the way would close a loop.
    const chain: { id: string }[] = await this.dataSource.query(
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
