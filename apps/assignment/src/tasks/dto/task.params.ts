import { ApiProperty } from '@nestjs/swagger';
import { IsUUID } from 'class-validator';

/** `{task_id}` of every task path (loc `["path","task_id"]`, docs/api/contract.md §2). */
export class TaskIdParams {
  @ApiProperty({ format: 'uuid' })
  @IsUUID('all')
  task_id!: string;
}
