import { ApiProperty } from '@nestjs/swagger';
import {
  TASK_PRIORITIES,
  TASK_STATUSES,
  type TaskAssignee,
  type TaskPriority,
  type TaskStatus,
  type TaskView,
} from '@media/contracts';
import { RequiredPermissionDto } from './create-task.dto';

/** `assigned_to_user`: the assignee as acl described it at the claim. */
export class TaskAssigneeResponse implements TaskAssignee {
  @ApiProperty({ format: 'uuid' }) id!: string;
  @ApiProperty() name!: string;
  @ApiProperty() email!: string;
}

/** A task in every response: each field present, `null` when unset (docs/api/contract.md §3). */
export class TaskResponse implements TaskView {
  @ApiProperty({ format: 'uuid' }) id!: string;
  @ApiProperty({ enum: TASK_STATUSES }) status!: TaskStatus;
  @ApiProperty({ enum: TASK_PRIORITIES }) priority!: TaskPriority;
  @ApiProperty({ type: String, nullable: true }) engine_request!: string | null;
  @ApiProperty() workflow_node_code!: string;
  @ApiProperty() node_preview_name!: string;
  @ApiProperty({ type: String, nullable: true }) node_instructions!: string | null;
  @ApiProperty({ type: [RequiredPermissionDto] }) required_permissions_snapshot!: RequiredPermissionDto[];
  @ApiProperty({ type: [String], format: 'uuid' }) candidate_groups!: string[];
  @ApiProperty({ type: String, format: 'uuid', nullable: true }) assigned_to!: string | null;
  @ApiProperty({ type: String, format: 'date-time', nullable: true }) assigned_at!: string | null;
  @ApiProperty({ type: String, format: 'date-time', nullable: true }) completed_at!: string | null;
  @ApiProperty({ type: String, format: 'date-time', nullable: true }) due_at!: string | null;
  @ApiProperty({ type: String, nullable: true }) source_service!: string | null;
  @ApiProperty({ type: String, nullable: true }) entity_type!: string | null;
  @ApiProperty({ type: String, format: 'uuid', nullable: true }) entity_id!: string | null;
  @ApiProperty({ type: String, nullable: true }) entity_reference!: string | null;
  @ApiProperty({ format: 'date-time' }) created_at!: string;
  @ApiProperty({ format: 'date-time' }) updated_at!: string;
  @ApiProperty({ type: String, format: 'date-time', nullable: true }) deleted_at!: string | null;
  @ApiProperty({ type: TaskAssigneeResponse, nullable: true }) assigned_to_user!: TaskAssigneeResponse | null;
  @ApiProperty({ minimum: 0 }) escalation_level!: number;
}
