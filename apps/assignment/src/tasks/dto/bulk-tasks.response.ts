import { ApiProperty, ApiPropertyOptional } from '@nestjs/swagger';
import { ERROR_CODES, type ErrorCode } from '@media/contracts';
import { TaskResponse } from './task.response';

/** Why one task of a bulk action failed: the body its single action would have answered. */
export class BulkTaskErrorResponse {
  @ApiProperty({ description: 'A sentence (a 422’s issues summarised in one)' }) detail!: string;
  @ApiProperty({ type: String, enum: [...ERROR_CODES], enumName: 'ErrorCode', example: 'task_not_claimable' })
  code!: ErrorCode;
}

/** One task's outcome, in the order of `task_ids`: `task` when `status` is 200, else `error`. */
export class BulkTaskResultResponse {
  @ApiProperty({ format: 'uuid' }) task_id!: string;
  @ApiProperty({
    enum: [200, 403, 404, 409, 422],
    description: 'The HTTP status the single action would have answered',
  })
  status!: number;
  @ApiPropertyOptional({ type: TaskResponse, description: 'The task after the action (status 200)' })
  task?: TaskResponse;
  @ApiPropertyOptional({ type: BulkTaskErrorResponse, description: 'The error (any other status)' })
  error?: BulkTaskErrorResponse;
}

/** `data` of a bulk action's envelope (docs/api/contract.md §7.2). */
export class BulkTasksResponse {
  @ApiProperty({ type: [BulkTaskResultResponse] }) results!: BulkTaskResultResponse[];
}
