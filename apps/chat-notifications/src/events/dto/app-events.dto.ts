import { IsArray, IsIn, IsInt, IsOptional, IsString, IsUUID, Min } from 'class-validator';
import {
  TASK_PRIORITIES,
  type TaskPriority,
  type ChatMessageCreatedEvent,
  CorrespondentInvitedEvent,
  TaskClaimedEvent,
  TaskEscalatedEvent,
  TaskReassignedEvent,
} from '@media/contracts';
import { IsDateTime } from '@media/kernel';

/**
 * The fields of other apps' events that chat-notifications reads, validated before a handler
 * runs (`@OnEvent(subject, Dto)`): a malformed event goes to the dead letters. Fields not named
 * here are kept, so a producer may add some first.
 */
export class TaskClaimedPayload implements Pick<TaskClaimedEvent, 'task_id' | 'claimed_by'> {
  @IsUUID('all')
  task_id!: string;

  /** `null` or absent: nobody to tell. */
  @IsOptional()
  @IsUUID('all')
  assigned_to?: string | null;

  @IsUUID('all')
  claimed_by!: string;

  /** The task's priority, which its notification takes; absent (an older assignment): MEDIUM. */
  @IsOptional()
  @IsIn(TASK_PRIORITIES)
  priority?: TaskPriority;
}

export class TaskReassignedPayload
  implements Pick<TaskReassignedEvent, 'task_id' | 'assigned_to' | 'previous_assignee' | 'reassigned_by'>
{
  @IsUUID('all')
  task_id!: string;

  @IsUUID('all')
  assigned_to!: string;

  @IsUUID('all')
  previous_assignee!: string;

  @IsUUID('all')
  reassigned_by!: string;
}

export class TaskEscalatedPayload implements Pick<TaskEscalatedEvent, 'task_id' | 'escalation_level'> {
  @IsUUID('all')
  task_id!: string;

  @IsOptional()
  @IsUUID('all')
  assigned_to?: string | null;

  @IsInt()
  @Min(0)
  escalation_level!: number;

  /** Absent in events of an assignment that announced one event per level. */
  @IsOptional()
  @IsInt()
  @Min(0)
  from_level?: number;

  @IsOptional()
  @IsInt()
  @Min(0)
  to_level?: number;
}

export class CorrespondentInvitedPayload
  implements Pick<CorrespondentInvitedEvent, 'user_id' | 'email' | 'name' | 'expires_at'>
{
  @IsUUID('all')
  user_id!: string;

  @IsString()
  email!: string;

  @IsString()
  name!: string;

  @IsOptional()
  @IsUUID('all')
  invited_by?: string | null;

  @IsDateTime()
  expires_at!: string;
}

export class ChatMessageCreatedPayload
  implements
    Pick<
      ChatMessageCreatedEvent,
      'message_id' | 'room_id' | 'room_name' | 'sender' | 'body' | 'recipient_ids'
    >
{
  @IsUUID('all')
  message_id!: string;

  @IsUUID('all')
  room_id!: string;

  @IsString()
  room_name!: string;

  @IsUUID('all')
  sender!: string;

  @IsString()
  body!: string;

  @IsArray()
  @IsUUID('all', { each: true })
  recipient_ids!: string[];
}
