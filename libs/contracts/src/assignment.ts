import type { ErrorCode } from './errors';

export const AssignmentSubjects = {
  tasksCreate: 'assignment.tasks.create',
} as const;

export const AssignmentEvents = {
  taskClaimed: 'assignment.task.claimed',
  taskEscalated: 'assignment.task.escalated',
  taskUnclaimed: 'assignment.task.unclaimed',
  taskStarted: 'assignment.task.started',
  taskCompleted: 'assignment.task.completed',
  taskCancelled: 'assignment.task.cancelled',
  taskReassigned: 'assignment.task.reassigned',
} as const;

export const TASK_STATUSES = ['OPEN', 'CLAIMED', 'IN_PROGRESS', 'COMPLETED', 'CANCELLED'] as const;
/** Lifecycle of a workflow task (docs/api/contract.md §4.4). */
export type TaskStatus = (typeof TASK_STATUSES)[number];

export const TASK_PRIORITIES = ['LOW', 'MEDIUM', 'HIGH', 'URGENT'] as const;
export type TaskPriority = (typeof TASK_PRIORITIES)[number];

/** Error codes assignment answers besides the platform's (`not_found`, `forbidden`, ...). */
export const AssignmentErrorCodes = {
  /** Claim of a task held by another user, or not OPEN/CLAIMED (docs/api/contract.md §4.4). */
  taskNotClaimable: 'task_not_claimable',
  /** unclaim/start/complete/cancel from a status that does not allow it. */
  invalidTransition: 'invalid_transition',
  /** Reassignment of a task that is not CLAIMED or IN_PROGRESS (docs/api/contract.md §7.2). */
  taskNotReassignable: 'task_not_reassignable',
  /** A bulk item whose single action would have answered 422 (docs/api/contract.md §7.2). */
  validationFailed: 'validation_failed',
} as const;
export type AssignmentErrorCode = (typeof AssignmentErrorCodes)[keyof typeof AssignmentErrorCodes];

/** One permission a claimant must hold. */
export interface RequiredPermission {
  code: string;
}

/** What another app sends to open a workflow task (same fields and rules as the HTTP create). */
export interface CreateTaskRequest {
  workflow_node_code: string;
  node_preview_name: string;
  node_instructions?: string | null;
  priority?: TaskPriority;
  due_at?: string | null;
  required_permissions_snapshot?: RequiredPermission[];
  /** Group ids; when non-empty, only members of one of them may claim. */
  candidate_groups?: string[];
  source_service?: string | null;
  entity_type?: string | null;
  entity_id?: string | null;
  entity_reference?: string | null;
  engine_request?: string | null;
}

/** The assignee as acl described it when the task was claimed. */
export interface TaskAssignee {
  id: string;
  name: string;
  email: string;
}

/** A workflow task as every client sees it: each seed field always present, `null` when unset. */
export interface TaskView {
  id: string;
  status: TaskStatus;
  priority: TaskPriority;
  engine_request: string | null;
  workflow_node_code: string;
  node_preview_name: string;
  node_instructions: string | null;
  required_permissions_snapshot: RequiredPermission[];
  candidate_groups: string[];
  assigned_to: string | null;
  assigned_at: string | null;
  completed_at: string | null;
  due_at: string | null;
  source_service: string | null;
  entity_type: string | null;
  entity_id: string | null;
  entity_reference: string | null;
  created_at: string;
  updated_at: string;
  deleted_at: string | null;
  assigned_to_user: TaskAssignee | null;
  escalation_level: number;
}

export const BULK_TASK_ACTIONS = ['claim', 'unclaim', 'start', 'complete', 'cancel', 'reassign'] as const;
/** What `POST /assignment/api/v1/tasks/bulk` does to each task (docs/api/contract.md §7.2). */
export type BulkTaskAction = (typeof BULK_TASK_ACTIONS)[number];

/** One task's outcome in a bulk action: the task, or the error its single action would have answered. */
export type BulkTaskResult =
  | { task_id: string; status: 200; task: TaskView }
  | { task_id: string; status: number; error: { detail: string; code: ErrorCode } };

export interface AssignmentRpc {
  /** Creates an OPEN task; a malformed payload is a 422 at `["data", ...]`. */
  [AssignmentSubjects.tasksCreate]: { req: CreateTaskRequest; res: TaskView };
}

/** What every task event carries, so a consumer can notify without asking back. */
export interface TaskEventBase {
  task_id: string;
  status: TaskStatus;
  /** The assignee after the change (`null` when nobody holds the task). */
  assigned_to: string | null;
  /** Who made the change; `null` for the escalation job. */
  actor_id: string | null;
  workflow_node_code: string;
  node_preview_name: string;
  priority: TaskPriority;
  due_at: string | null;
  escalation_level: number;
  entity_type: string | null;
  entity_id: string | null;
  entity_reference: string | null;
}

/** Payload of `assignment.task.claimed`. */
export interface TaskClaimedEvent extends TaskEventBase {
  assigned_to: string;
  /** The caller: the assignee itself, or a user with `tasks:assign` claiming on its behalf. */
  claimed_by: string;
}

/** Payload of `assignment.task.unclaimed`. */
export interface TaskUnclaimedEvent extends TaskEventBase {
  previous_assignee: string;
}

/** Payload of `assignment.task.reassigned`: a held task given to another user, status kept. */
export interface TaskReassignedEvent extends TaskEventBase {
  /** The new assignee. */
  assigned_to: string;
  /** Who held the task before. */
  previous_assignee: string;
  /** The caller, a user with `tasks:assign`. */
  reassigned_by: string;
}

/** Payload of `assignment.task.started`. */
export type TaskStartedEvent = TaskEventBase;

/** Payload of `assignment.task.completed`. */
export interface TaskCompletedEvent extends TaskEventBase {
  completed_at: string;
}

/** Payload of `assignment.task.cancelled`. */
export type TaskCancelledEvent = TaskEventBase;

/**
 * Payload of `assignment.task.escalated`: one event per task per pass of the job, however many
 * levels it went up (`escalation_level` is the level reached, as `to_level`).
 */
export interface TaskEscalatedEvent extends TaskEventBase {
  escalation_level: number;
  /** The level before this pass (0 for a task not escalated yet). */
  from_level: number;
  /** The level reached, at most `ESCALATION_MAX_LEVEL`. */
  to_level: number;
  assigned_to: string | null;
}
