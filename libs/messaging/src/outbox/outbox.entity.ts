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

  /** While in the future, a relay is publishing this row (a lease, not a lock). */
  @Column({ name: 'claimed_until', type: 'timestamptz', precision: 3, nullable: true })
  claimedUntil!: Date | null;
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

/** An event a handler gave up on: malformed, or still failing after EVENTS_MAX_DELIVER attempts. */
@Entity({ name: 'dead_letters' })
export class DeadLetter {
  @PrimaryGeneratedColumn('uuid')
  id!: string;

  @Column({ type: 'text' })
  consumer!: string;

  @Column({ type: 'text' })
  subject!: string;

  /** The envelope's id as received (it may not be a uuid: that is one reason to be here). */
  @Column({ name: 'event_id', type: 'text', nullable: true })
  eventId!: string | null;

  /** The message as received. */
  @Column({ type: 'text' })
  payload!: string;

  @Column({ type: 'text' })
  error!: string;

  @Column({ type: 'int' })
  deliveries!: number;

  @CreateDateColumn({ name: 'created_at', type: 'timestamptz', precision: 3 })
  createdAt!: Date;
}
