import { ApiProperty } from '@nestjs/swagger';

/** A chat message. */
export class MessageResponse {
  @ApiProperty({ format: 'uuid' }) id!: string;
  @ApiProperty({ format: 'uuid' }) room_id!: string;
  @ApiProperty({ format: 'uuid' }) sender!: string;
  @ApiProperty() body!: string;
  @ApiProperty({ format: 'date-time' }) created_at!: string;
}
