import { ApiProperty, ApiPropertyOptional } from '@nestjs/swagger';
import { Type } from 'class-transformer';
import {
  ArrayMaxSize,
  IsArray,
  IsIn,
  IsString,
  IsUUID,
  MaxLength,
  MinLength,
  ValidateNested,
} from 'class-validator';
import {
  TASK_PRIORITIES,
  type AssignmentSubjects,
  type RpcRequest,
  type RequiredPermission,
  type TaskPriority,
} from '@media/contracts';
import { IsDateTime, IsName, Nullable, Optional } from '@media/kernel';

export const TASK_LIMITS = {
  workflowNodeCode: 100,
  nodePreviewName: 255,
  nodeInstructions: 10_000,
  engineRequest: 65_535,
  shortText: 100,
  entityReference: 255,
  permissions: 50,
  permissionCode: 100,
  candidateGroups: 100,
} as const;

/** One `{"code": ...}` of `required_permissions_snapshot`. */
export class RequiredPermissionDto implements RequiredPermission {
  @ApiProperty({ minLength: 1, maxLength: TASK_LIMITS.permissionCode, example: 'tasks:claim' })
  @IsString()
  @MinLength(1)
  @MaxLength(TASK_LIMITS.permissionCode)
  code!: string;
}

/** `POST /assignment/api/v1/tasks` and the NATS request `assignment.tasks.create` (docs/api/contract.md §4a). */
export class CreateTaskDto implements RpcRequest<typeof AssignmentSubjects.tasksCreate> {
  @ApiProperty({ minLength: 1, maxLength: TASK_LIMITS.workflowNodeCode })
  @IsString()
  @MinLength(1)
  @MaxLength(TASK_LIMITS.workflowNodeCode)
  workflow_node_code!: string;

  @ApiProperty({ minLength: 1, maxLength: TASK_LIMITS.nodePreviewName })
  @IsString()
  @MinLength(1)
  @MaxLength(TASK_LIMITS.nodePreviewName)
  @IsName()
  node_preview_name!: string;

  @ApiPropertyOptional({ type: String, nullable: true, maxLength: TASK_LIMITS.nodeInstructions })
  @Nullable()
  @IsString()
  @MaxLength(TASK_LIMITS.nodeInstructions)
  node_instructions?: string | null;

  @ApiPropertyOptional({ enum: TASK_PRIORITIES, default: 'MEDIUM' })
  @Optional()
  @IsIn(TASK_PRIORITIES)
  priority?: TaskPriority;

  @ApiPropertyOptional({ type: String, nullable: true, format: 'date-time' })
  @Nullable()
  @IsDateTime()
  due_at?: string | null;

  @ApiPropertyOptional({ type: [RequiredPermissionDto], maxItems: TASK_LIMITS.permissions })
  @Optional()
  @IsArray()
  @ArrayMaxSize(TASK_LIMITS.permissions)
  @ValidateNested({ each: true })
  @Type(() => RequiredPermissionDto)
  required_permissions_snapshot?: RequiredPermissionDto[];

  @ApiPropertyOptional({
    type: [String],
    format: 'uuid',
    maxItems: TASK_LIMITS.candidateGroups,
    description: 'Group ids; when given, only members of one of them may claim.',
  })
  @Optional()
  @IsArray()
  @ArrayMaxSize(TASK_LIMITS.candidateGroups)
  @IsUUID('all', { each: true })
  candidate_groups?: string[];

  @ApiPropertyOptional({ type: String, nullable: true, minLength: 1, maxLength: TASK_LIMITS.shortText })
  @Nullable()
  @IsString()
  @MinLength(1)
  @MaxLength(TASK_LIMITS.shortText)
  source_service?: string | null;

  @ApiPropertyOptional({ type: String, nullable: true, minLength: 1, maxLength: TASK_LIMITS.shortText })
  @Nullable()
  @IsString()
  @MinLength(1)
  @MaxLength(TASK_LIMITS.shortText)
  entity_type?: string | null;

  @ApiPropertyOptional({ type: String, nullable: true, format: 'uuid' })
  @Nullable()
  @IsUUID('all')
  entity_id?: string | null;

  @ApiPropertyOptional({ type: String, nullable: true, minLength: 1, maxLength: TASK_LIMITS.entityReference })
  @Nullable()
  @IsString()
  @MinLength(1)
  @MaxLength(TASK_LIMITS.entityReference)
  entity_reference?: string | null;

  @ApiPropertyOptional({ type: String, nullable: true, maxLength: TASK_LIMITS.engineRequest })
  @Nullable()
  @IsString()
  @MaxLength(TASK_LIMITS.engineRequest)
  engine_request?: string | null;
}
