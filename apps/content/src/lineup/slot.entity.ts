import { Column, CreateDateColumn, Entity, PrimaryColumn, PrimaryGeneratedColumn } from 'typeorm';

/** One airing of a schedule. */
@Entity({ name: 'slots' })
export class Slot {
  @PrimaryGeneratedColumn('uuid')
  id!: string;

  @Column({ name: 'schedule_id', type: 'uuid' })
  scheduleId!: string;

  @Column({ name: 'air_date', type: 'date' })
  airDate!: string;

  /** `HH:MM:SS` as PostgreSQL returns a `time`. */
  @Column({ name: 'start_time', type: 'time', precision: 0 })
  startTime!: string;

  @Column({ name: 'duration_seconds', type: 'int' })
  durationSeconds!: number;

  @Column({ type: 'text' })
  title!: string;

  @CreateDateColumn({ name: 'created_at', type: 'timestamptz', precision: 3 })
  createdAt!: Date;
}

/** A document attached to a slot. */
@Entity({ name: 'slot_assets' })
export class SlotAsset {
  @PrimaryColumn({ name: 'slot_id', type: 'uuid' })
  slotId!: string;

  @PrimaryColumn({ name: 'document_id', type: 'uuid' })
  documentId!: string;

  @Column({ name: 'attached_by', type: 'uuid' })
  attachedBy!: string;

  @Column({ name: 'attached_at', type: 'timestamptz', precision: 3 })
  attachedAt!: Date;
}
