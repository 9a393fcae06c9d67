import { Column, Entity, PrimaryGeneratedColumn } from 'typeorm';

export type RoomType = 'GROUP' | 'DIRECT';

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
