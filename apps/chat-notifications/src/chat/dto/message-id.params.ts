import { IsUUID } from 'class-validator';

/** `/api/v1/chat/rooms/{id}/messages/{message_id}`. */
export class MessageIdParams {
  @IsUUID('all')
  id!: string;

  @IsUUID('all')
  message_id!: string;
}
