import { IsUUID } from 'class-validator';

/** `/api/v1/chat/rooms/{id}/members/{user_id}`. */
export class RoomMemberParams {
  @IsUUID('all')
  id!: string;

  @IsUUID('all')
  user_id!: string;
}
