import { Column, Entity, PrimaryGeneratedColumn } from 'typeorm';

/** A message posted in a room; a deleted one stays as a tombstone (body null, deleted_at set). */
@Entity({ name: 'chat_messages' })
export class ChatMessage {
  @PrimaryGeneratedColumn('uuid')
  id!: string;

  @Column({ name: 'room_id', type: 'uuid' })
  roomId!: string;

  @Column({ type: 'uuid' })
  sender!: string;

  @Column({ type: 'text', nullable: true })
  body!: string | null;

  /** The members the sender mentioned, as posted (an edit leaves them). */
  @Column({ type: 'uuid', array: true })
  mentions!: string[];

  @Column({ name: 'edited_at', type: 'timestamptz', precision: 3, nullable: true })
  editedAt!: Date | null;

  @Column({ name: 'deleted_at', type: 'timestamptz', precision: 3, nullable: true })
  deletedAt!: Date | null;

  @Column({ name: 'created_at', type: 'timestamptz', precision: 3 })
  createdAt!: Date;
}
