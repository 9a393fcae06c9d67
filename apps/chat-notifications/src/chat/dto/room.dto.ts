import { ApiProperty, ApiPropertyOptional } from '@nestjs/swagger';
import { ArrayMaxSize, ArrayMinSize, IsArray, IsString, IsUUID, MaxLength, MinLength } from 'class-validator';
import { IsName, ItemType, Nullable, Optional, PageQuery } from '@media/platform';

export const MAX_MEMBER_IDS = 500;

/** `POST /api/v1/chat/rooms` (seed endpoint 1). */
export class CreateRoomDto {
  @ApiProperty({ minLength: 1, maxLength: 255 })
  @IsString()
  @MinLength(1)
  @MaxLength(255)
  @IsName()
  name!: string;

  @ApiProperty({
    minLength: 1,
    maxLength: 255,
    description: 'The caller must be in this group (token `groups`).',
  })
  @IsString()
  @MinLength(1)
  @MaxLength(255)
  group_id!: string;

  @ApiPropertyOptional({ type: String, format: 'uuid', nullable: true })
  @Nullable()
  @IsUUID('all')
  document_id?: string | null;

  @ApiPropertyOptional({ type: [String], format: 'uuid', maxItems: MAX_MEMBER_IDS })
  @Optional()
  @IsArray()
  @ArrayMaxSize(MAX_MEMBER_IDS)
  @IsUUID('all', { each: true })
  @ItemType(String)
  member_ids?: string[];
}

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

/** `POST /api/v1/chat/rooms/direct`. */
export class DirectRoomDto {
  @ApiProperty({ format: 'uuid' })
  @IsUUID('all')
  user_id!: string;
}

/** `POST /api/v1/chat/rooms/{id}/messages`. */
export class CreateMessageDto {
  @ApiProperty({ minLength: 1, maxLength: 4000 })
  @IsString()
  @MinLength(1)
  @MaxLength(4000)
  body!: string;
}

export class RoomIdParams {
  @IsUUID('all')
  id!: string;
}

export class RoomMemberParams {
  @IsUUID('all')
  id!: string;

  @IsUUID('all')
  user_id!: string;
}

/** The caller's rooms, newest first. */
export class ListRoomsQuery extends PageQuery {}

/** A room's messages, newest first. */
export class ListMessagesQuery extends PageQuery {}
