import type { BookingPlatform, BookingStatus } from '@media/contracts';
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

/** One line of a booking; amounts are the line's totals, numeric in SQL and strings here. */
@Entity({ name: 'booking_lines' })
export class BookingLine {
  @PrimaryGeneratedColumn('uuid')
  id!: string;

  /** Insertion order (an identity column the database fills; a bigint, so a string). */
  @Column({ type: 'bigint', insert: false, update: false })
  seq!: string;

  @Column({ name: 'order_id', type: 'uuid' })
  orderId!: string;

  @Column({ type: 'text' })
  platform!: BookingPlatform;

  @Column({ type: 'text' })
  category!: string;

  @Column({ type: 'text' })
  channel!: string;

  @Column({ name: 'start_date', type: 'date' })
  startDate!: string;

  @Column({ name: 'end_date', type: 'date' })
  endDate!: string;

  @Column({ type: 'int' })
  spots!: number;

  @Column({ name: 'rate_card_amount', type: 'numeric', precision: 17, scale: 2 })
  rateCardAmount!: string;

  @Column({ name: 'booked_amount', type: 'numeric', precision: 17, scale: 2 })
  bookedAmount!: string;

  @CreateDateColumn({ name: 'created_at', type: 'timestamptz', precision: 3 })
  createdAt!: Date;

  @UpdateDateColumn({ name: 'updated_at', type: 'timestamptz', precision: 3 })
  updatedAt!: Date;
}

/** An ad asset of a booking line; `document_id` is nulled when the document is deleted. */
@Entity({ name: 'line_assets' })
export class LineAsset {
  @PrimaryGeneratedColumn('uuid')
  id!: string;

  @Column({ name: 'line_id', type: 'uuid' })
  lineId!: string;

  @Column({ type: 'text' })
  name!: string;

  @Column({ name: 'document_id', type: 'uuid', nullable: true })
  documentId!: string | null;

  @Column({ type: 'text', nullable: true })
  notes!: string | null;

  @CreateDateColumn({ name: 'created_at', type: 'timestamptz', precision: 3 })
  createdAt!: Date;

  @UpdateDateColumn({ name: 'updated_at', type: 'timestamptz', precision: 3 })
  updatedAt!: Date;
}
