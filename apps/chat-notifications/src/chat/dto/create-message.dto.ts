import { ApiProperty, ApiPropertyOptional } from '@nestjs/swagger';
import { ArrayMaxSize, ArrayUnique, IsArray, IsString, IsUUID, MaxLength, MinLength } from 'class-validator';
import { ItemType, Optional } from '@media/kernel';

/** At most this many users mentioned in one message (docs/api/contract.md §7.4). */
export const MAX_MENTIONS = 50;

/** `POST /api/v1/chat/rooms/{id}/messages`. */
export class CreateMessageDto {
  @ApiProperty({ minLength: 1, maxLength: 4000 })
  @IsString()
  @MinLength(1)
  @MaxLength(4000)
  body!: string;

  @ApiPropertyOptional({
    type: [String],
    format: 'uuid',
    maxItems: MAX_MENTIONS,
    uniqueItems: true,
    description: 'Distinct members of the room to mention; each gets a `chat.mention` notification (HIGH)',
  })
  @Optional()
  @IsArray()
  @ArrayMaxSize(MAX_MENTIONS)
  @IsUUID('all', { each: true })
  @ArrayUnique((id: unknown) => (typeof id === 'string' ? id.toLowerCase() : id))
  @ItemType(String)
  mentions?: string[];
}
