import { Inject, Injectable } from '@nestjs/common';
import { InjectDataSource } from '@nestjs/typeorm';
import type { Request } from 'express';
import { Conflict, NotFound, ValidationFailed } from '@media/core';
import { Paginator, type Page } from '@media/http';
import { uniqueViolation } from '@media/kernel';
import type { DataSource } from 'typeorm';
import { TokenVersionsService } from '../sessions/token-versions.service';
import { User } from '../users/user.entity';
import type { ListGroupsQuery } from './dto/group.dto';
import { GroupMember } from './group-member.entity';
import { Group } from './group.entity';
import { toGroupView, toMembershipView, type GroupView, type MembershipView } from './group.view';

/** Groups and their members (docs/api/contract.md §4a, `users:admin`). */
@Injectable()
export class GroupsService {
  constructor(
    @InjectDataSource() private readonly dataSource: DataSource,
    @Inject(Paginator) private readonly paginator: Paginator,
    @Inject(TokenVersionsService) private readonly tokenVersions: TokenVersionsService,
  ) {}

  async create(name: string): Promise<GroupView> {
    const repo = this.dataSource.getRepository(Group);
    try {
      const group = await repo.save(repo.create({ name }));
      return toGroupView(group, 0);
    } catch (error) {
      if (uniqueViolation(error) === 'groups_name_key')
        throw new Conflict(`A group named '${name}' already exists.`, 'group_name_taken');
      throw error;
    }
  }

  async get(id: string): Promise<GroupView> {
    const group = await this.dataSource.getRepository(Group).findOneBy({ id: id.toLowerCase() });
    if (!group) throw new NotFound('Group', id);
    const counts = await this.memberCounts([group.id]);
    return toGroupView(group, counts.get(group.id) ?? 0);
  }

  async list(query: ListGroupsQuery, req: Request): Promise<Page<GroupView>> {
    const qb = this.dataSource.getRepository(Group).createQueryBuilder('g');
    const page = await this.paginator.paginate(
      qb,
      {
        columns: [
          { expression: 'g.name COLLATE "C"', direction: 'ASC', cast: 'text' },
          { expression: 'g.id', direction: 'ASC', cast: 'uuid' },
        ],
        key: (g) => [g.name, g.id],
      },
      query,
      req,
      (g) => g,
    );
    const counts = await this.memberCounts(page.results.map((g) => g.id));
    return { ...page, results: page.results.map((g) => toGroupView(g, counts.get(g.id) ?? 0)) };
  }

  /**
   * Adds a member; `created` is false when the user already was one (200 rather than 201).
   * The user is checked first: a body naming nobody is a 422 before the group's 404 (docs/api/contract.md §1 order).
   */
  async addMember(
    groupId: string,
    userId: string,
  ): Promise<{ created: boolean; membership: MembershipView }> {
    const group = groupId.toLowerCase();
    const user = userId.toLowerCase();
    if (!(await this.dataSource.getRepository(User).existsBy({ id: user }))) {
      throw ValidationFailed.at(['body', 'user_id'], `User ${userId} does not exist`, 'value_error');
    }
    if (!(await this.dataSource.getRepository(Group).existsBy({ id: group })))
      throw new NotFound('Group', groupId);
    const repo = this.dataSource.getRepository(GroupMember);
    // In a transaction, as every audited change (its entry names the caller).
    const inserted = await this.dataSource.transaction((manager) =>
      manager
        .getRepository(GroupMember)
        .createQueryBuilder()
        .insert()
        .values({ groupId: group, userId: user })
        .orIgnore()
        .returning(['groupId', 'userId'])
        .execute(),
    );
    const membership = await repo.findOneByOrFail({ groupId: group, userId: user });
    return { created: inserted.raw.length > 0, membership: toMembershipView(membership) };
  }

  /** What is taken away takes effect at once: the user's older tokens (listing the group) are revoked. */
  async removeMember(groupId: string, userId: string): Promise<void> {
    await this.dataSource.transaction(async (manager) => {
      const user = userId.toLowerCase();
      const result = await manager
        .getRepository(GroupMember)
        .delete({ groupId: groupId.toLowerCase(), userId: user });
      if (!result.affected) throw new NotFound('Membership');
      await this.tokenVersions.raise(manager, [user]);
    });
  }

  private async memberCounts(ids: string[]): Promise<Map<string, number>> {
    if (ids.length === 0) return new Map();
    const rows: { group_id: string; n: number }[] = await this.dataSource.query(
      `SELECT group_id, count(*)::int AS n FROM group_members WHERE group_id = ANY($1::uuid[]) GROUP BY group_id`,
      [ids],
    );
    return new Map(rows.map((r) => [r.group_id, r.n]));
  }
}
