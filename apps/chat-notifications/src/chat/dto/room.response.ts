import { ApiProperty } from '@nestjs/swagger';

/** ChatRoomMember of the seed. */
export class MemberResponse {
  @ApiProperty({ format: 'uuid' }) id!: string;
  @ApiProperty({ format: 'uuid' }) user!: string;
  @ApiProperty({ enum: ['ADMIN', 'MEMBER'] }) role!: 'ADMIN' | 'MEMBER';
  @ApiProperty({ format: 'date-time' }) joined_at!: string;
  @ApiProperty({ format: 'date-time', nullable: true, type: String }) last_read_at!: string | null;
}

/** ChatRoom of the seed; `unread_count` and `mention_count` are the caller's, as strings. */
export class RoomResponse {
  @ApiProperty({ format: 'uuid' }) id!: string;
  @ApiProperty() name!: string;
  @ApiProperty({ enum: ['GROUP', 'DIRECT'] }) room_type!: 'GROUP' | 'DIRECT';
  @ApiProperty() group_id!: string;
  @ApiProperty({ format: 'uuid', nullable: true, type: String }) document_id!: string | null;
  @ApiProperty({ format: 'uuid' }) created_by!: string;
  @ApiProperty() is_active!: boolean;
  @ApiProperty({ type: [MemberResponse] }) members!: MemberResponse[];
  @ApiProperty({ example: '0', description: "The caller's unread messages (by others, not deleted)" })
  unread_count!: string;
  @ApiProperty({ example: '0', description: "The caller's unread messages that mention the caller" })
  mention_count!: string;
  @ApiProperty({ format: 'date-time' }) created_at!: string;
  @ApiProperty({ format: 'date-time' }) updated_at!: string;
}
