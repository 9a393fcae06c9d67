import { IsUUID } from 'class-validator';

/** `/api/v1/webhooks/endpoints/{id}/messages/{message_id}` (the message id is its event's id). */
export class MessageIdParams {
  @IsUUID('all')
  id!: string;

  @IsUUID('all')
  message_id!: string;
}
