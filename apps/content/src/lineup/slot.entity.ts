import { Column, CreateDateColumn, Entity, PrimaryGeneratedColumn } from 'typeorm';

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
