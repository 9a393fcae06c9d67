import { ApiPropertyOptional } from '@nestjs/swagger';
import { IsBoolean, IsIn, IsString, IsUUID, MaxLength, MinLength } from 'class-validator';
import { TASK_PRIORITIES, TASK_STATUSES, type TaskPriority, type TaskStatus } from '@media/contracts';
import { IsDateTime, Optional } from '@media/kernel';
import { PageQuery } from '@media/http';

export const TASK_ORDERINGS = ['-created_at', 'due_at'] as const;
export type TaskOrdering = (typeof TASK_ORDERINGS)[number];

/** `GET /assignment/api/v1/tasks`: cursor list with filters (docs/api/contract.md §4.4). */
export class ListTasksQuery extends PageQuery {
  @ApiPropertyOptional({ enum: TASK_STATUSES })
  @Optional()
  @IsIn(TASK_STATUSES)
  status?: TaskStatus;

  @ApiPropertyOptional({ format: 'uuid' })
  @Optional()
  @IsUUID('all')
  assigned_to?: string;

  @ApiPropertyOptional({ enum: TASK_PRIORITIES })
  @Optional()
  @IsIn(TASK_PRIORITIES)
  priority?: TaskPriority;

  @ApiPropertyOptional({ minLength: 1, maxLength: 100 })
  @Optional()
  @IsString()
  @MinLength(1)
  @MaxLength(100)
  entity_type?: string;

  @ApiPropertyOptional({ format: 'uuid' })
  @Optional()
  @IsUUID('all')
  entity_id?: string;

  @ApiPropertyOptional({ format: 'date-time', description: 'Tasks due strictly before this moment.' })
  @Optional()
  @IsDateTime()
  due_before?: string;

  @ApiPropertyOptional({
    description: '`true`: past `due_at` and not COMPLETED or CANCELLED; `false`: every other task.',
  })
  @Optional()
  @IsBoolean()
  overdue?: boolean;

  @ApiPropertyOptional({
    enum: ['me'],
    description: 'The OPEN tasks the caller may claim, together with the tasks it holds.',
  })
  @Optional()
  @IsIn(['me'])
  claimable_by?: 'me';

  @ApiPropertyOptional({
    enum: TASK_ORDERINGS,
    default: '-created_at',
    description: '`due_at`: soonest due first, tasks without `due_at` last.',
  })
  @Optional()
  @IsIn(TASK_ORDERINGS)
  ordering?: TaskOrdering;
}
