import { Inject, Injectable } from '@nestjs/common';
import { InjectDataSource } from '@nestjs/typeorm';
import {
  AssignmentErrorCodes,
  AssignmentEvents,
  Permissions,
  type TaskCompletedEvent,
  type TaskReassignedEvent,
  type TaskUnclaimedEvent,
  type TaskView,
  type UserProfile,
} from '@media/contracts';
import { AclClient } from '@media/app-clients';
import { type AuthUser, Conflict, Forbidden, hasPermission, NotFound, ValidationFailed } from '@media/core';
import { type KeysetOrder, newestFirst, type Page, Paginator } from '@media/http';
import { Outbox } from '@media/messaging';
import { PreparedQuery } from '@media/kernel';
import { auditContextJson, withAudit } from '@media/platform';
import type { Request } from 'express';
import { isUUID } from 'class-validator';
import { IsNull, type DataSource, type EntityManager } from 'typeorm';
import { ClockService } from './clock.service';
import type { CreateTaskDto } from './dto/create-task.dto';
import type { ListTasksQuery } from './dto/list-tasks.query';
import { Task } from './task.entity';
import { allows, assertMayHold, permissionCodes, TRANSITIONS, type TransitionName } from './task-rules';
import { taskEventBase, taskEventBaseSql, toTaskView } from './task.view';

const ACTIVE = `('OPEN', 'CLAIMED', 'IN_PROGRESS')`;

/** Newest first, ties by id (docs/api/contract.md §4.4). */
const NEWEST_FIRST: KeysetOrder<Task> = newestFirst('t.createdAt', (t) => t.createdAt);

/** `ordering=due_at`: soonest due first, tasks without `due_at` last (as +infinity), ties by id. */
const SOONEST_DUE_FIRST: KeysetOrder<Task> = {
  columns: [
    {
      expression: `COALESCE(t.dueAt, CAST('infinity' AS timestamptz))`,
      direction: 'ASC',
      cast: 'timestamptz',
    },
    { expression: 't.id', direction: 'ASC', cast: 'uuid' },
  ],
  key: (t) => [t.dueAt ? t.dueAt.toISOString() : 'infinity', t.id],
};

/**
 * The claim's conditional UPDATE ($1 task, $2 claimant, $3 assignee JSON, $4 holds `*`, $5 its
 * permissions, $6 its groups) and, when it changed the row, the outbox row of the
 * TaskClaimedEvent ($7 subject, $8 caller, $9 meta): the event base of the claimed row,
 * `assigned_to` the claimant and `claimed_by` the caller. The outer SELECT sets the audit context
 * ($10) its row trigger reads when it fires, at the statement's end (no transaction around it),
 * and returns the task's `columns`.
 *
 * A named statement of the pool (`PreparedQuery`): a claim by key keeps PostgreSQL's generic plan,
 * whereas TypeORM's unnamed statement was parsed and planned at every call (233 µs of planning
 * beside 512 µs of execution; docs/benchmarks.md). Its result columns are named, not `*`, so a
 * migration adding a column to `tasks` leaves it prepared (PreparedQuery).
 */
const claimStatement = (columns: readonly string[]) =>
  new PreparedQuery<Record<string, unknown>>(
    'assignment.tasks.claim',
    `
  WITH claimed AS (
    UPDATE tasks
       SET status = 'CLAIMED', assigned_to = $2, assigned_at = now(), assigned_to_user = $3, updated_at = now()
     WHERE id = $1 AND status = 'OPEN' AND deleted_at IS NULL
       AND ($4::boolean OR required_permissions <@ $5::text[])
       AND (cardinality(candidate_groups) = 0 OR candidate_groups && $6::uuid[])
    RETURNING *
  ), event AS (
    INSERT INTO outbox (subject, payload, meta)
    SELECT $7, ${taskEventBaseSql('claimed', '$8::text')} || jsonb_build_object('claimed_by', $8::text), $9::jsonb
      FROM claimed
  )
  SELECT ${columns.map((c) => `"${c.replace(/"/g, '""')}"`).join(', ')}, set_config('audit.context', $10, true) AS audit_context
    FROM claimed`,
  );

const EVENT_OF: Record<TransitionName, string> = {
  unclaim: AssignmentEvents.taskUnclaimed,
  start: AssignmentEvents.taskStarted,
  complete: AssignmentEvents.taskCompleted,
  cancel: AssignmentEvents.taskCancelled,
};

/** Workflow tasks: creation, the work queue, the claim and the other transitions (docs/api/contract.md §4.4). */
@Injectable()
export class TasksService {
  private claimQuery?: PreparedQuery<Record<string, unknown>>;

  constructor(
    @InjectDataSource() private readonly dataSource: DataSource,
    @Inject(Paginator) private readonly paginator: Paginator,
    @Inject(Outbox) private readonly outbox: Outbox,
    @Inject(AclClient) private readonly acl: AclClient,
    @Inject(ClockService) private readonly clock: ClockService,
  ) {}

  async create(dto: CreateTaskDto): Promise<TaskView> {
    const snapshot = (dto.required_permissions_snapshot ?? []).map((p) => ({ code: p.code }));
    const repo = this.dataSource.getRepository(Task);
    const task = await repo.save(
      repo.create({
        workflowNodeCode: dto.workflow_node_code,
        nodePreviewName: dto.node_preview_name,
        nodeInstructions: dto.node_instructions ?? null,
        priority: dto.priority ?? 'MEDIUM',
        dueAt: dto.due_at ? new Date(dto.due_at) : null,
        requiredPermissionsSnapshot: snapshot,
        requiredPermissions: permissionCodes(snapshot),
        candidateGroups: [...new Set((dto.candidate_groups ?? []).map((g) => g.toLowerCase()))],
        sourceService: dto.source_service ?? null,
        entityType: dto.entity_type ?? null,
        entityId: dto.entity_id?.toLowerCase() ?? null,
        entityReference: dto.entity_reference ?? null,
        engineRequest: dto.engine_request ?? null,
      }),
    );
    return toTaskView(await repo.findOneByOrFail({ id: task.id }));
  }

  async get(id: string): Promise<TaskView> {
    return toTaskView(await this.find(this.dataSource.manager, id));
  }

  async list(query: ListTasksQuery, caller: AuthUser, req: Request): Promise<Page<TaskView>> {
    const qb = this.dataSource.getRepository(Task).createQueryBuilder('t').where('t.deletedAt IS NULL');
    if (query.status) qb.andWhere('t.status = :status', { status: query.status });
    if (query.assigned_to)
      qb.andWhere('t.assignedTo = :assignedTo', { assignedTo: query.assigned_to.toLowerCase() });
    if (query.priority) qb.andWhere('t.priority = :priority', { priority: query.priority });
    if (query.entity_type) qb.andWhere('t.entityType = :entityType', { entityType: query.entity_type });
    if (query.entity_id) qb.andWhere('t.entityId = :entityId', { entityId: query.entity_id.toLowerCase() });
    if (query.due_before) qb.andWhere('t.dueAt < :dueBefore', { dueBefore: new Date(query.due_before) });
    if (query.overdue !== undefined) {
      const overdue = `(t.dueAt < :now AND t.status IN ${ACTIVE})`;
      qb.andWhere(query.overdue ? overdue : `NOT COALESCE(${overdue}, false)`, { now: this.clock.now() });
    }
    if (query.claimable_by === 'me') {
      // The caller's own permissions and groups, from its token (a claim re-checks them with acl).
      const everything = hasPermission(caller, '*');
      const groups = caller.groups.filter((g) => isUUID(g)).map((g) => g.toLowerCase());
      qb.andWhere(
        `((t.status = 'OPEN'
            AND (:everything OR t.requiredPermissions <@ CAST(:permissions AS text[]))
            AND (cardinality(t.candidateGroups) = 0 OR t.candidateGroups && CAST(:groups AS uuid[])))
          OR (t.assignedTo = :me AND t.status IN ('CLAIMED', 'IN_PROGRESS')))`,
        { everything, permissions: caller.permissions, groups, me: caller.id.toLowerCase() },
      );
    }
    const order = query.ordering === 'due_at' ? SOONEST_DUE_FIRST : NEWEST_FIRST;
    return this.paginator.paginate(qb, order, query, req, toTaskView);
  }

  /**
   * Claims a task, in the contract's order of checks (the permission to claim for oneself or for
   * another was checked by the guard): the claimant exists and is active (422), the task exists
   * (404), is claimable (409, or an idempotent 200 for its own claim), the claimant holds the
   * snapshot's permissions and is a candidate (403). The claim itself is one conditional UPDATE
   * that also carries the 403 conditions, so of N concurrent claims exactly one changes the row;
   * when it changes nothing, the task is read to answer with the first check that fails.
   */
  async claim(taskId: string, userId: string | undefined, caller: AuthUser): Promise<TaskView> {
    return this.claimAs(taskId, await this.activeUser(userId ?? caller.id), caller);
  }

  /**
   * The profile of the user a claim or a reassignment names, asked of acl: unknown or not ACTIVE
   * is a 422 at `["body","user_id"]`. A bulk action asks once for all its tasks.
   */
  async activeUser(userId: string): Promise<UserProfile> {
    const id = userId.toLowerCase();
    const profile = await this.acl.profile(id);
    if (!profile || profile.status !== 'ACTIVE') {
      throw ValidationFailed.at(['body', 'user_id'], `User ${id} does not exist or is not active`);
    }
    return profile;
  }

  /**
   * The claim of one task by a claimant acl described (the rest of the claim's checks). The
   * conditional UPDATE and the outbox row of its event are one statement (a CTE): atomic on its
   * own, so no transaction around it, one round trip to PostgreSQL instead of four.
   */
  async claimAs(taskId: string, claimant: UserProfile, caller: AuthUser): Promise<TaskView> {
    const claimantId = claimant.id.toLowerCase();
    const assignee = { id: claimantId, name: claimant.name, email: claimant.email };
    this.claimQuery ??= claimStatement(this.dataSource.getMetadata(Task).columns.map((c) => c.databaseName));
    const rows = await this.claimQuery.run(this.dataSource, [
      taskId.toLowerCase(),
      claimantId,
      JSON.stringify(assignee),
      hasPermission(claimant, '*'),
      claimant.permissions,
      claimant.groups.filter((g) => isUUID(g)),
      AssignmentEvents.taskClaimed,
      caller.id,
      JSON.stringify(this.outbox.meta()),
      auditContextJson('assignment', { task: 'task.claimed' }),
    ]);
    if (rows.length > 0) {
      this.outbox.written();
      return toTaskView(this.hydrate(rows[0]));
    }

    // Nothing changed: say why, in the contract's order.
    const task = await this.find(this.dataSource.manager, taskId);
    if (task.status === 'CLAIMED' && task.assignedTo === claimantId) return toTaskView(task);
    if (task.status !== 'OPEN') throw this.notClaimable(task, claimantId);
    assertMayHold(task, claimantId, claimant);
    // It was claimed and given back between the UPDATE and this read: another claim won the race.
    throw new Conflict(
      `Task ${task.id} was claimed by another user meanwhile.`,
      AssignmentErrorCodes.taskNotClaimable,
    );
  }

  /**
   * docs/api/contract.md §7.2: a CLAIMED or IN_PROGRESS task gets another assignee and keeps its
   * status. Checks as a claim's: the new assignee is active (422, asked of acl first), the task
   * exists (404), can be reassigned (409 `task_not_reassignable`), the assignee holds the
   * snapshot's permissions and is a candidate (403). The row is locked while it changes, so a
   * reassignment and a claim or transition of the same task are serialised. Reassigning to the
   * current assignee changes nothing and announces nothing.
   */
  async reassign(taskId: string, userId: string, caller: AuthUser): Promise<TaskView> {
    return this.reassignTo(taskId, await this.activeUser(userId), caller);
  }

  async reassignTo(taskId: string, assignee: UserProfile, caller: AuthUser): Promise<TaskView> {
    return withAudit({ actions: { task: 'task.reassigned' } }, () =>
      this.reassignNow(taskId, assignee, caller),
    );
  }

  private reassignNow(taskId: string, assignee: UserProfile, caller: AuthUser): Promise<TaskView> {
    const assigneeId = assignee.id.toLowerCase();
    return this.dataSource.transaction(async (manager) => {
      const task = await this.find(manager, taskId, true);
      if (task.status !== 'CLAIMED' && task.status !== 'IN_PROGRESS') {
        throw new Conflict(
          `Task ${task.id} is ${task.status}; only a CLAIMED or IN_PROGRESS task can be reassigned (claim it for the user instead).`,
          AssignmentErrorCodes.taskNotReassignable,
        );
      }
      assertMayHold(task, assigneeId, assignee);
      if (task.assignedTo === assigneeId) return toTaskView(task);
      const previousAssignee = task.assignedTo!;
      task.assignedTo = assigneeId;
      task.assignedAt = new Date();
      task.assignedToUser = { id: assigneeId, name: assignee.name, email: assignee.email };
      await manager.save(task);
      const saved = await manager.findOneByOrFail(Task, { id: task.id });
      const event: TaskReassignedEvent = {
        ...taskEventBase(saved, caller.id),
        assigned_to: assigneeId,
        previous_assignee: previousAssignee,
        reassigned_by: caller.id,
      };
      await this.outbox.enqueue(manager, AssignmentEvents.taskReassigned, event);
      return toTaskView(saved);
    });
  }

  /** A task from a raw row of its columns (the claim's), converted as TypeORM converts what it loads. */
  private hydrate(row: Record<string, unknown>): Task {
    const task = new Task();
    for (const column of this.dataSource.getMetadata(Task).columns) {
      column.setEntityValue(
        task,
        this.dataSource.driver.prepareHydratedValue(row[column.databaseName], column),
      );
    }
    return task;
  }

  /**
   * unclaim / start / complete / cancel: 404, then 403 unless the caller holds the task or has
   * `tasks:assign`, then 409 naming the current status. The row is locked while it changes.
   */
  async transition(name: TransitionName, taskId: string, caller: AuthUser): Promise<TaskView> {
    const rule = TRANSITIONS[name];
    return withAudit({ actions: { task: `task.${rule.verb}` } }, () =>
      this.transitionNow(name, taskId, caller),
    );
  }

  private transitionNow(name: TransitionName, taskId: string, caller: AuthUser): Promise<TaskView> {
    const rule = TRANSITIONS[name];
    return this.dataSource.transaction(async (manager) => {
      const task = await this.find(manager, taskId, true);
      const holder = task.assignedTo !== null && task.assignedTo === caller.id.toLowerCase();
      if (!holder && !hasPermission(caller, Permissions.tasksAssign)) {
        throw new Forbidden('Only the assignee or a user with tasks:assign may do this.');
      }
      if (!allows(name, task.status)) {
        throw new Conflict(
          `Task ${task.id} is ${task.status}; only a task that is ${rule.from.join(' or ')} can be ${rule.verb}.`,
          AssignmentErrorCodes.invalidTransition,
        );
      }
      const previousAssignee = task.assignedTo;
      task.status = rule.to;
      if (name === 'unclaim') {
        task.assignedTo = null;
        task.assignedAt = null;
        task.assignedToUser = null;
      }
      if (name === 'complete') task.completedAt = new Date();
      await manager.save(task);
      const saved = await manager.findOneByOrFail(Task, { id: task.id });
      const base = taskEventBase(saved, caller.id);
      const payload: object =
        name === 'unclaim'
          ? ({ ...base, previous_assignee: previousAssignee! } satisfies TaskUnclaimedEvent)
          : name === 'complete'
            ? ({ ...base, completed_at: saved.completedAt!.toISOString() } satisfies TaskCompletedEvent)
            : base;
      await this.outbox.enqueue(manager, EVENT_OF[name], payload);
      return toTaskView(saved);
    });
  }

  /** Soft delete: the task disappears from every read (404) but its row stays. */
  async remove(taskId: string): Promise<void> {
    const result = await withAudit({ actions: { task: 'task.deleted' } }, () =>
      this.dataSource.transaction((manager) =>
        manager
          .createQueryBuilder()
          .update(Task)
          .set({ deletedAt: () => 'now()' })
          .where('id = :id AND deleted_at IS NULL', { id: taskId.toLowerCase() })
          .execute(),
      ),
    );
    if (!result.affected) throw new NotFound('Task', taskId);
  }

  private async find(manager: EntityManager, id: string, lock = false): Promise<Task> {
    const task = await manager.getRepository(Task).findOne({
      where: { id: id.toLowerCase(), deletedAt: IsNull() },
      ...(lock ? { lock: { mode: 'pessimistic_write' as const } } : {}),
    });
    if (!task) throw new NotFound('Task', id);
    return task;
  }

  private notClaimable(task: Task, claimantId: string): Conflict {
    const detail =
      task.assignedTo !== null && task.assignedTo !== claimantId
        ? `Task ${task.id} is ${task.status} by another user.`
        : `Task ${task.id} is ${task.status} and cannot be claimed.`;
    return new Conflict(detail, AssignmentErrorCodes.taskNotClaimable);
  }
}
