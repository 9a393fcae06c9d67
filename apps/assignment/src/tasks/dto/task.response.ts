import { applyDecorators } from '@nestjs/common';
import { ApiProperty, ApiResponse } from '@nestjs/swagger';
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
export class TaskAssigneeDto implements TaskAssignee {
  @ApiProperty({ format: 'uuid' }) id!: string;
  @ApiProperty() name!: string;
  @ApiProperty() email!: string;
}

/** A task in every response: each field present, `null` when unset (CONTRACT §3). */
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

/** A page of the task list (CONTRACT §3). */
export class TaskPageDto {
  @ApiProperty({ type: [TaskDto] }) results!: TaskDto[];
  @ApiProperty({ type: String, nullable: true, format: 'uri' }) next!: string | null;
  @ApiProperty({ type: String, nullable: true, format: 'uri' }) previous!: string | null;
}

/** Endpoint 4's envelope. */
export class ClaimResponseDto {
  @ApiProperty({ example: true }) success!: boolean;
  @ApiProperty({ example: 'Task claimed' }) message!: string;
  @ApiProperty({ type: TaskDto }) data!: TaskDto;
}

class ErrorBodyDto {
  @ApiProperty() detail!: string;
  @ApiProperty({ example: 'not_found' }) code!: string;
}

class ValidationIssueDto {
  @ApiProperty({ type: [String], example: ['body', 'user_id'] }) loc!: string[];
  @ApiProperty() msg!: string;
  @ApiProperty({ example: 'uuid_parsing' }) type!: string;
}

class ValidationErrorDto {
  @ApiProperty({ type: [ValidationIssueDto] }) detail!: ValidationIssueDto[];
}

const ERROR_TEXT: Record<number, string> = {
  401: 'Missing, malformed or expired token (`not_authenticated`, `token_invalid`, `token_expired`).',
  403: 'A permission is missing (`forbidden`).',
  404: 'Unknown or deleted task (`not_found`).',
  409: 'The task is not in a status that allows this (`task_not_claimable`, `invalid_transition`).',
  413: 'Body over the limit (`payload_too_large`).',
  415: 'Unsupported content type (`unsupported_media_type`).',
  422: 'Validation failure: one item per failing field.',
  503: 'acl (or another NATS responder) did not answer (`upstream_unavailable`).',
};

/** Documents the error statuses a route can answer, with the contract's bodies (CONTRACT §2). */
export function ApiErrors(...statuses: number[]) {
  return applyDecorators(
    ...statuses.map((status) =>
      ApiResponse({
        status,
        description: ERROR_TEXT[status] ?? 'Error',
        type: status === 422 ? ValidationErrorDto : ErrorBodyDto,
      }),
    ),
  );
}
