import { ApiProperty } from '@nestjs/swagger';
import { ArrayMaxSize, ArrayMinSize, IsArray, IsUUID } from 'class-validator';
import { ItemType } from '@media/kernel';
import { MAX_MEMBER_IDS } from './create-room.dto';

/** `POST /api/v1/chat/rooms/{id}/members`. */
export class AddMembersDto {
  @ApiProperty({ type: [String], format: 'uuid', minItems: 1, maxItems: MAX_MEMBER_IDS })
  @IsArray()
  @ArrayMinSize(1)
  @ArrayMaxSize(MAX_MEMBER_IDS)
  @IsUUID('all', { each: true })
  @ItemType(String)
  member_ids!: string[];
}
