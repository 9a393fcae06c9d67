import type { TaskEventBase, TaskView } from '@media/contracts';
import type { Task } from './task.entity';

const iso = (date: Date | null): string | null => (date ? date.toISOString() : null);

/** The task as clients see it: every seed field, `null` when unset (docs/api/contract.md §3). */
export function toTaskView(task: Task): TaskView {
  return {
    id: task.id,
    status: task.status,
    priority: task.priority,
    engine_request: task.engineRequest,
    workflow_node_code: task.workflowNodeCode,
    node_preview_name: task.nodePreviewName,
    node_instructions: task.nodeInstructions,
    required_permissions_snapshot: task.requiredPermissionsSnapshot,
    candidate_groups: task.candidateGroups,
    assigned_to: task.assignedTo,
    assigned_at: iso(task.assignedAt),
    completed_at: iso(task.completedAt),
    due_at: iso(task.dueAt),
    source_service: task.sourceService,
    entity_type: task.entityType,
    entity_id: task.entityId,
    entity_reference: task.entityReference,
    created_at: task.createdAt.toISOString(),
    updated_at: task.updatedAt.toISOString(),
    deleted_at: iso(task.deletedAt),
    assigned_to_user: task.assignedToUser,
    escalation_level: task.escalationLevel,
  };
}

/** What every task event carries (see `TaskEventBase`). */
export function taskEventBase(task: Task, actorId: string | null): TaskEventBase {
  return {
    task_id: task.id,
    status: task.status,
    assigned_to: task.assignedTo,
    actor_id: actorId,
    workflow_node_code: task.workflowNodeCode,
    node_preview_name: task.nodePreviewName,
    priority: task.priority,
    due_at: iso(task.dueAt),
    escalation_level: task.escalationLevel,
    entity_type: task.entityType,
    entity_id: task.entityId,
    entity_reference: task.entityReference,
  };
}

/** A timestamptz column as `Date.toISOString()` writes it (UTC, milliseconds), or NULL. */
const isoSql = (column: string): string =>
  `to_char(${column} AT TIME ZONE 'UTC', 'YYYY-MM-DD"T"HH24:MI:SS.MS"Z"')`;

/**
 * `taskEventBase` in SQL, of `row` (e.g. the RETURNING of a CTE's UPDATE) and the actor's id
 * `actor` (an SQL expression), for an event written by the statement that makes the change. The
 * same JSON as `taskEventBase` of that row: task-events.int-spec.ts holds the two equal.
 */
export function taskEventBaseSql(row: string, actor: string): string {
  const column = (name: string) => `'${name}', ${row}.${name}`;
  return `jsonb_build_object(
    'task_id', ${row}.id, ${column('status')}, ${column('assigned_to')}, 'actor_id', ${actor},
    ${column('workflow_node_code')}, ${column('node_preview_name')}, ${column('priority')},
    'due_at', ${isoSql(`${row}.due_at`)}, ${column('escalation_level')},
    ${column('entity_type')}, ${column('entity_id')}, ${column('entity_reference')})`;
}

/** The `{success, message, data}` envelope of a claim and the answers modelled on it (docs/api/contract.md §3, §7.2). */
export interface Enveloped<T> {
  success: true;
  message: string;
  data: T;
}

export function enveloped<T>(message: string, data: T): Enveloped<T> {
  return { success: true, message, data };
}
