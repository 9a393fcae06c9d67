import { IsUUID } from 'class-validator';

/** `/api/v1/chat/rooms/{id}`. */
export class RoomIdParams {
  @IsUUID('all')
  id!: string;
}
