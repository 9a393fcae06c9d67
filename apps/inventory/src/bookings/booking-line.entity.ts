import type { BookingPlatform } from '@media/contracts';
import { Column, CreateDateColumn, Entity, PrimaryGeneratedColumn, UpdateDateColumn } from 'typeorm';

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
