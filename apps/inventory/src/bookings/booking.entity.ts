import type { BookingStatus } from '@media/contracts';
import { Column, CreateDateColumn, Entity, PrimaryGeneratedColumn, UpdateDateColumn } from 'typeorm';

/** A booking (order) of a client; its totals are derived from its lines, never stored. */
@Entity({ name: 'bookings' })
export class Booking {
  @PrimaryGeneratedColumn('uuid')
  id!: string;

  @Column({ type: 'text' })
  reference!: string;

  @Column({ name: 'client_name', type: 'text' })
  clientName!: string;

  @Column({ type: 'text', nullable: true })
  agency!: string | null;

  @Column({ type: 'text' })
  status!: BookingStatus;

  @Column({ type: 'text' })
  currency!: string;

  @Column({ name: 'created_by', type: 'uuid' })
  createdBy!: string;

  @CreateDateColumn({ name: 'created_at', type: 'timestamptz', precision: 3 })
  createdAt!: Date;

  @UpdateDateColumn({ name: 'updated_at', type: 'timestamptz', precision: 3 })
  updatedAt!: Date;
}
