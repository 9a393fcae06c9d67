import { Inject, Injectable } from '@nestjs/common';
import { AssignmentErrorCodes, type BulkTaskResult, type TaskView, type UserProfile } from '@media/contracts';
import { DomainError, ValidationFailed, type AuthUser } from '@media/platform';
import type { BulkTasksDto } from './dto/bulk-tasks.dto';
import { TasksService } from './tasks.service';

/** The statuses an item may carry besides 200: those the single actions answer about one task. */
const ITEM_STATUSES = new Set([403, 404, 409, 422]);

/**
 * Bulk task actions (docs/api/contract.md §7.2): the single action applied to each task in turn,
 * each in its own transaction, with its checks, events and notifications; a task's failure is
 * its item, not the request's. What does not depend on the task is settled once: the claimant or
 * new assignee is asked of acl in one request, not once per task.
 */
@Injectable()
export class BulkTasksService {
  constructor(@Inject(TasksService) private readonly tasks: TasksService) {}

  async apply(dto: BulkTasksDto, caller: AuthUser): Promise<BulkTaskResult[]> {
    assertDistinct(dto.task_ids);
    const act = await this.action(dto, caller);
    const results: BulkTaskResult[] = [];
    // One task after another: each holds one connection for its own transaction only.
    for (const taskId of dto.task_ids) results.push(await outcome(taskId, () => act(taskId)));
    return results;
  }

  private async action(dto: BulkTasksDto, caller: AuthUser): Promise<(taskId: string) => Promise<TaskView>> {
    switch (dto.action) {
      case 'claim': {
        const claimant = await this.user(dto.user_id ?? caller.id);
        return (id) =>
          claimant instanceof ValidationFailed
            ? Promise.reject(claimant)
            : this.tasks.claimAs(id, claimant, caller);
      }
      case 'reassign': {
        const assignee = await this.user(dto.user_id!);
        return (id) =>
          assignee instanceof ValidationFailed
            ? Promise.reject(assignee)
            : this.tasks.reassignTo(id, assignee, caller);
      }
      default: {
        const name = dto.action;
        return (id) => this.tasks.transition(name, id, caller);
      }
    }
  }

  /** The named user, or the 422 every item answers when it is unknown or not active. */
  private async user(userId: string): Promise<UserProfile | ValidationFailed> {
    try {
      return await this.tasks.activeUser(userId);
    } catch (error) {
      if (error instanceof ValidationFailed) return error;
      throw error;
    }
  }
}

/** A repeated task id (compared case-insensitively) is a 422 at its later index. */
function assertDistinct(taskIds: readonly string[]): void {
  const seen = new Map<string, number>();
  const issues = taskIds.flatMap((id, i) => {
    const key = id.toLowerCase();
    const first = seen.get(key);
    if (first === undefined) {
      seen.set(key, i);
      return [];
    }
    return [
      { loc: ['body', 'task_ids', String(i)], msg: `Duplicate of task_ids[${first}]`, type: 'value_error' },
    ];
  });
  if (issues.length > 0) throw new ValidationFailed(issues);
}

/** One item: the task, or the error its single action would have answered about it. */
async function outcome(taskId: string, run: () => Promise<TaskView>): Promise<BulkTaskResult> {
  try {
    return { task_id: taskId, status: 200, task: await run() };
  } catch (error) {
    if (error instanceof ValidationFailed) {
      return {
        task_id: taskId,
        status: 422,
        error: { detail: summarise(error), code: AssignmentErrorCodes.validationFailed },
      };
    }
    if (error instanceof DomainError && ITEM_STATUSES.has(error.status)) {
      return { task_id: taskId, status: error.status, error: { detail: error.detail, code: error.code } };
    }
    throw error;
  }
}

/** A 422's issues in one sentence: `Invalid body.user_id: User … is not active.` */
function summarise(error: ValidationFailed): string {
  const parts = error.issues.map((i) => `${i.loc.join('.')}: ${i.msg.replace(/\.$/, '')}`);
  return `Invalid ${parts.join('; ')}.`;
}
