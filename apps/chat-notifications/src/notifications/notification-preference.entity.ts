import { Column, Entity, PrimaryGeneratedColumn } from 'typeorm';

/** A user's choice for one notification type (or `*`) on one channel. */
@Entity({ name: 'notification_preferences' })
export class NotificationPreference {
  @PrimaryGeneratedColumn('uuid')
  id!: string;

  @Column({ name: 'recipient_id', type: 'uuid' })
  recipientId!: string;

  @Column({ name: 'notification_type', type: 'text' })
  notificationType!: string;

  @Column({ type: 'text' })
  channel!: string;

  @Column({ type: 'boolean' })
  enabled!: boolean;

  @Column({ name: 'created_at', type: 'timestamptz', precision: 3 })
  createdAt!: Date;

  @Column({ name: 'updated_at', type: 'timestamptz', precision: 3 })
  updatedAt!: Date;
}
