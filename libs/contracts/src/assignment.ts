export const AssignmentSubjects = {
  tasksCreate: 'assignment.tasks.create',
} as const;

export const AssignmentEvents = {
  taskClaimed: 'assignment.task.claimed',
  taskEscalated: 'assignment.task.escalated',
} as const;

export type TaskPriority = 'LOW' | 'MEDIUM' | 'HIGH' | 'URGENT';

/** What another app sends to open a workflow task. */
export interface CreateTaskRequest {
  workflow_node_code: string;
  node_preview_name: string;
  node_instructions?: string | null;
  priority?: TaskPriority;
  due_at?: string | null;
  required_permissions_snapshot?: { code: string }[];
  source_service?: string | null;
  entity_type?: string | null;
  entity_id?: string | null;
  entity_reference?: string | null;
  engine_request?: string | null;
}

export interface AssignmentRpc {
  [AssignmentSubjects.tasksCreate]: { req: CreateTaskRequest; res: { id: string } };
}

/** Payload of `assignment.task.claimed`. */
export interface TaskClaimedEvent {
  task_id: string;
  assigned_to: string;
  claimed_by: string;
}

/** Payload of `assignment.task.escalated`. */
export interface TaskEscalatedEvent {
  task_id: string;
  escalation_level: number;
  assigned_to: string | null;
}
