import { ApiProperty } from '@nestjs/swagger';
import { IsUUID } from 'class-validator';

/** `POST /assignment/api/v1/tasks/{task_id}/reassign` (docs/api/contract.md §7.2). */
export class ReassignTaskDto {
  @ApiProperty({
    format: 'uuid',
    description:
      'The new assignee: an active user holding the task’s permissions and in its candidate groups.',
  })
  @IsUUID('all')
  user_id!: string;
}
