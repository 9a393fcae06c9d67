import { ApiProperty } from '@nestjs/swagger';
import {
  TASK_PRIORITIES,
  TASK_STATUSES,
  type TaskAssignee,
  type TaskPriority,
  type TaskStatus,
  type TaskView,
} from '@media/contracts';
import { PageDto } from '@media/platform';
import { RequiredPermissionDto } from './create-task.dto';

/** `assigned_to_user`: the assignee as acl described it at the claim. */
export class TaskAssigneeDto implements TaskAssignee {
  @ApiProperty({ format: 'uuid' }) id!: string;
  @ApiProperty() name!: string;
  @ApiProperty() email!: string;
}

/** A task in every response: each field present, `null` when unset (docs/api/contract.md §3). */
export class TaskDto implements TaskView {
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
  @ApiProperty({ type: TaskAssigneeDto, nullable: true }) assigned_to_user!: TaskAssigneeDto | null;
  @ApiProperty({ minimum: 0 }) escalation_level!: number;
}

/** A page of the task list (docs/api/contract.md §3). */
export class TaskPageDto extends PageDto(TaskDto) {}

/** Endpoint 4's envelope. */
export class ClaimResponseDto {
  @ApiProperty({ example: true }) success!: boolean;
  @ApiProperty({ example: 'Task claimed' }) message!: string;
  @ApiProperty({ type: TaskDto }) data!: TaskDto;
}
