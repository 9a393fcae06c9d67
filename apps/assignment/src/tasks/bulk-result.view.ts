import { AssignmentErrorCodes, type BulkTaskResult, type TaskView } from '@media/contracts';
import { DomainError, ValidationFailed } from '@media/core';

/** The statuses an item may carry besides 200: those the single actions answer about one task. */
const ITEM_STATUSES = new Set([403, 404, 409, 422]);

/** One item: the task, or the error its single action would have answered about it. */
export async function toBulkResult(taskId: string, run: () => Promise<TaskView>): Promise<BulkTaskResult> {
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
