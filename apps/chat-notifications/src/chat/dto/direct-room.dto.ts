import { ApiProperty } from '@nestjs/swagger';
import { IsUUID } from 'class-validator';

/** `POST /api/v1/chat/rooms/direct`. */
export class DirectRoomDto {
  @ApiProperty({ format: 'uuid' })
  @IsUUID('all')
  user_id!: string;
}
