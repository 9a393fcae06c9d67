import { ApiProperty, ApiPropertyOptional } from '@nestjs/swagger';
import { IsUUID, ValidateIf } from 'class-validator';

/** `{task_id}` of every task path (loc `["path","task_id"]`, docs/api/contract.md §2). */
export class TaskIdParams {
  @ApiProperty({ format: 'uuid' })
  @IsUUID('all')
  task_id!: string;
}

/** Endpoint 4's body (JSON only). `user_id` defaults to the caller. */
export class ClaimTaskDto {
  @ApiPropertyOptional({
    format: 'uuid',
    description: 'Who claims: the caller when left out; another user needs `tasks:assign`.',
  })
  @ValidateIf((o: ClaimTaskDto) => o.user_id !== undefined)
  @IsUUID('all')
  user_id?: string;
}
