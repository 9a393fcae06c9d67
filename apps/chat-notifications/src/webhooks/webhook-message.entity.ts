import { Column, Entity, PrimaryColumn } from 'typeorm';
import type { WebhookMessageStatus } from '@media/contracts';

/** One event to deliver to one endpoint, with its delivery state and the lease of its sender. */
@Entity({ name: 'webhook_messages' })
export class WebhookMessage {
  @PrimaryColumn('uuid')
  id!: string;

  @Column({ name: 'endpoint_id', type: 'uuid' })
  endpointId!: string;

  /** The event's id: the `webhook-id` of every attempt. */
  @Column({ name: 'event_id', type: 'uuid' })
  eventId!: string;

  @Column({ type: 'text' })
  type!: string;

  @Column({ type: 'text' })
  status!: WebhookMessageStatus;

  @Column({ type: 'integer' })
  attempts!: number;

  @Column({ name: 'next_attempt_at', type: 'timestamptz', precision: 3, nullable: true })
  nextAttemptAt!: Date | null;

  @Column({ name: 'last_status_code', type: 'integer', nullable: true })
  lastStatusCode!: number | null;

  @Column({ name: 'created_at', type: 'timestamptz', precision: 3 })
  createdAt!: Date;
}
