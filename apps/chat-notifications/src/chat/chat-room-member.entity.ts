import { Column, Entity, PrimaryGeneratedColumn } from 'typeorm';

export type MemberRole = 'ADMIN' | 'MEMBER';

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
