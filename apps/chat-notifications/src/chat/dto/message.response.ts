import { ApiProperty } from '@nestjs/swagger';

/** A chat message; a deleted one stays in the list with `body` null and `deleted_at` set. */
export class MessageResponse {
  @ApiProperty({ format: 'uuid' }) id!: string;
  @ApiProperty({ format: 'uuid' }) room_id!: string;
  @ApiProperty({ format: 'uuid' }) sender!: string;
  @ApiProperty({ type: String, nullable: true, description: 'null once the message is deleted' })
  body!: string | null;
  @ApiProperty({
    type: [String],
    format: 'uuid',
    description: 'The members mentioned when it was posted (an edit leaves them)',
  })
  mentions!: string[];
  @ApiProperty({ type: String, format: 'date-time', nullable: true }) edited_at!: string | null;
  @ApiProperty({ type: String, format: 'date-time', nullable: true }) deleted_at!: string | null;
  @ApiProperty({ format: 'date-time' }) created_at!: string;
}
