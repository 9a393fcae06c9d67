import { ApiProperty, ApiPropertyOptional } from '@nestjs/swagger';
import {
  ArrayMaxSize,
  ArrayMinSize,
  IsArray,
  IsIn,
  IsUUID,
  registerDecorator,
  ValidateIf,
  type ValidationArguments,
} from 'class-validator';
import { BULK_TASK_ACTIONS, type BulkTaskAction } from '@media/contracts';

/** The most tasks one bulk request acts on (docs/api/contract.md §7.2). */
export const MAX_BULK_TASKS = 100;

/** Actions whose body may carry `user_id`: the claimant of `claim`, the new assignee of `reassign`. */
const TAKES_USER: readonly BulkTaskAction[] = ['claim', 'reassign'];

/** `user_id` is refused (`extra_forbidden`) for the actions that have no use for it. */
function OnlyForUserActions(): PropertyDecorator {
  return (target: object, propertyName: string | symbol) =>
    registerDecorator({
      name: 'onlyForUserActions',
      target: target.constructor,
      propertyName: String(propertyName),
      options: {
        message: 'user_id is only allowed for the claim and reassign actions',
        context: { type: 'extra_forbidden' },
      },
      validator: {
        validate: (_value: unknown, args: ValidationArguments) => {
          const action = (args.object as BulkTasksDto).action;
          // An unknown action is reported at `action` alone.
          return !(BULK_TASK_ACTIONS as readonly unknown[]).includes(action) || TAKES_USER.includes(action);
        },
      },
    });
}

/** `POST /assignment/api/v1/tasks/bulk` (JSON only, docs/api/contract.md §7.2). */
export class BulkTasksDto {
  @ApiProperty({ enum: BULK_TASK_ACTIONS })
  @IsIn(BULK_TASK_ACTIONS)
  action!: BulkTaskAction;

  @ApiProperty({
    type: [String],
    format: 'uuid',
    minItems: 1,
    maxItems: MAX_BULK_TASKS,
    uniqueItems: true,
    description: 'Distinct task ids; results come back in this order. A repeated id is a 422 at its index.',
  })
  @IsArray()
  @ArrayMinSize(1)
  @ArrayMaxSize(MAX_BULK_TASKS)
  @IsUUID('all', { each: true })
  task_ids!: string[];

  @ApiPropertyOptional({
    format: 'uuid',
    description:
      '`claim`: the claimant (default the caller; another user needs `tasks:assign`). `reassign`: the new assignee (required). Not allowed for the other actions.',
  })
  @ValidateIf((o: BulkTasksDto) => o.user_id !== undefined || o.action === 'reassign')
  @IsUUID('all')
  @OnlyForUserActions()
  user_id?: string;
}
