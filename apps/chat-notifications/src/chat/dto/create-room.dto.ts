import { ApiProperty, ApiPropertyOptional } from '@nestjs/swagger';
import { ArrayMaxSize, IsArray, IsString, IsUUID, MaxLength, MinLength } from 'class-validator';
import { IsName, ItemType, Nullable, Optional } from '@media/kernel';

/** At most this many member ids in one request. */
export const MAX_MEMBER_IDS = 500;

/** `POST /api/v1/chat/rooms` (create a room). */
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
