import { Column, CreateDateColumn, Entity, PrimaryGeneratedColumn, UpdateDateColumn } from 'typeorm';
import type { Medium } from '@media/contracts';

/** A monthly broadcast schedule of one medium and channel (seed "BroadcastSchedule"). */
@Entity({ name: 'broadcast_schedules' })
export class BroadcastSchedule {
  @PrimaryGeneratedColumn('uuid')
  id!: string;

  @Column({ type: 'text' })
  medium!: Medium;

  @Column({ type: 'text' })
  channel!: string;

  @Column({ type: 'int' })
  month!: number;

  @Column({ type: 'int' })
  year!: number;

  @Column({ type: 'text' })
  title!: string;

  @Column({ type: 'int' })
  version!: number;

  /** `YYYY-MM-DD` (a `date` column read as text, never shifted by a time zone). */
  @Column({ name: 'effective_from', type: 'date' })
  effectiveFrom!: string;

  @Column({ name: 'effective_to', type: 'date' })
  effectiveTo!: string;

  @Column({ name: 'uploaded_by', type: 'uuid' })
  uploadedBy!: string;

  @Column({ type: 'jsonb' })
  metadata!: Record<string, unknown>;

  /** The strong ETag's counter. */
  @Column({ type: 'int' })
  revision!: number;

  @CreateDateColumn({ name: 'created_at', type: 'timestamptz', precision: 3 })
  createdAt!: Date;

  @UpdateDateColumn({ name: 'updated_at', type: 'timestamptz', precision: 3 })
  updatedAt!: Date;
}
