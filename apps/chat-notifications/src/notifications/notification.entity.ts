import type { NotificationPriority } from '@media/contracts';
import { Column, Entity, PrimaryGeneratedColumn } from 'typeorm';

export type DeliveryStatus = 'pending' | 'sent' | 'held' | 'digest' | 'disabled' | 'skipped' | 'failed';

/** One inbox entry of one recipient. */
@Entity({ name: 'notifications' })
export class Notification {
  @PrimaryGeneratedColumn('uuid')
  id!: string;

  @Column({ name: 'recipient_id', type: 'uuid' })
  recipientId!: string;

  @Column({ name: 'notification_type', type: 'text' })
  notificationType!: string;

  @Column({ type: 'text' })
  title!: string;

  @Column({ type: 'text', nullable: true })
  body!: string | null;

  @Column({ type: 'jsonb' })
  data!: Record<string, unknown>;

  @Column({ type: 'text' })
  priority!: NotificationPriority;

  @Column({ name: 'websocket_status', type: 'text' })
  websocketStatus!: DeliveryStatus;

  @Column({ name: 'email_status', type: 'text' })
  emailStatus!: DeliveryStatus;

  @Column({ type: 'int' })
  attempts!: number;

  @Column({ name: 'read_at', type: 'timestamptz', precision: 3, nullable: true })
  readAt!: Date | null;

  @Column({ name: 'archived_at', type: 'timestamptz', precision: 3, nullable: true })
  archivedAt!: Date | null;

  @Column({ name: 'created_at', type: 'timestamptz', precision: 3 })
  createdAt!: Date;
}
