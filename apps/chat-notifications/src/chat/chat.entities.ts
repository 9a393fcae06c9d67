import { Column, Entity, PrimaryGeneratedColumn } from 'typeorm';

export type RoomType = 'GROUP' | 'DIRECT';
export type MemberRole = 'ADMIN' | 'MEMBER';

/** A chat room of a group, or a direct room of two users. */
@Entity({ name: 'chat_rooms' })
export class ChatRoom {
  @PrimaryGeneratedColumn('uuid')
  id!: string;

  @Column({ type: 'text' })
  name!: string;

  @Column({ name: 'room_type', type: 'text' })
  roomType!: RoomType;

  @Column({ name: 'group_id', type: 'text' })
  groupId!: string;

  @Column({ name: 'document_id', type: 'uuid', nullable: true })
  documentId!: string | null;

  @Column({ name: 'created_by', type: 'uuid' })
  createdBy!: string;

  @Column({ name: 'is_active', type: 'boolean' })
  isActive!: boolean;

  @Column({ name: 'direct_key', type: 'text', nullable: true })
  directKey!: string | null;

  @Column({ name: 'created_at', type: 'timestamptz', precision: 3 })
  createdAt!: Date;

  @Column({ name: 'updated_at', type: 'timestamptz', precision: 3 })
  updatedAt!: Date;
}

/** A user's membership of a room, with its read marker. */
@Entity({ name: 'chat_room_members' })
export class ChatRoomMember {
  @PrimaryGeneratedColumn('uuid')
  id!: string;

  @Column({ name: 'room_id', type: 'uuid' })
  roomId!: string;

  @Column({ name: 'user_id', type: 'uuid' })
  userId!: string;

  @Column({ type: 'text' })
  role!: MemberRole;

  @Column({ name: 'joined_at', type: 'timestamptz', precision: 3 })
  joinedAt!: Date;

  @Column({ name: 'last_read_at', type: 'timestamptz', precision: 3, nullable: true })
  lastReadAt!: Date | null;
}

/** A message posted in a room. */
@Entity({ name: 'chat_messages' })
export class ChatMessage {
  @PrimaryGeneratedColumn('uuid')
  id!: string;

  @Column({ name: 'room_id', type: 'uuid' })
  roomId!: string;

  @Column({ type: 'uuid' })
  sender!: string;

  @Column({ type: 'text' })
  body!: string;

  @Column({ name: 'created_at', type: 'timestamptz', precision: 3 })
  createdAt!: Date;
}
