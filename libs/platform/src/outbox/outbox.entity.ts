import { Column, CreateDateColumn, Entity, Index, PrimaryGeneratedColumn } from 'typeorm';
import type { MessageMeta } from '@media/contracts';

/** An event written in the same transaction as the change it announces (transactional outbox). */
@Entity({ name: 'outbox' })
@Index('outbox_pending_idx', ['createdAt'], { where: 'published_at IS NULL' })
export class OutboxMessage {
  @PrimaryGeneratedColumn('uuid')
  id!: string;

  @Column({ type: 'text' })
  subject!: string;

  @Column({ type: 'jsonb' })
  payload!: object;

  @Column({ type: 'jsonb', default: () => "'{}'" })
  meta!: MessageMeta;

  @CreateDateColumn({ name: 'created_at', type: 'timestamptz', precision: 3 })
  createdAt!: Date;

  @Column({ name: 'published_at', type: 'timestamptz', precision: 3, nullable: true })
  publishedAt!: Date | null;

  @Column({ type: 'int', default: 0 })
  attempts!: number;
}

/** Which events a consumer has already applied, so a redelivery changes nothing. */
@Entity({ name: 'processed_events' })
export class ProcessedEvent {
  @Column({ name: 'event_id', type: 'uuid', primary: true })
  eventId!: string;

  @Column({ type: 'text', primary: true })
  consumer!: string;

  @CreateDateColumn({ name: 'processed_at', type: 'timestamptz', precision: 3 })
  processedAt!: Date;
}
