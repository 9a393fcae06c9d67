import { Inject, Injectable } from '@nestjs/common';
import type { BulkTaskResult, TaskView, UserProfile } from '@media/contracts';
import { ValidationFailed, type AuthUser } from '@media/core';
import { toBulkResult } from './bulk-result.view';
import type { BulkTasksDto } from './dto/bulk-tasks.dto';
import { TasksService } from './tasks.service';

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
    for (const taskId of dto.task_ids) results.push(await toBulkResult(taskId, () => act(taskId)));
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
