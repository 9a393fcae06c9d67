import type { DealStatus } from '@media/contracts';
import { Column, CreateDateColumn, Entity, PrimaryGeneratedColumn, UpdateDateColumn } from 'typeorm';

/** A deal with a client; only WON deals count in top clients. */
@Entity({ name: 'deals' })
export class Deal {
  @PrimaryGeneratedColumn('uuid')
  id!: string;

  @Column({ name: 'client_id', type: 'uuid' })
  clientId!: string;

  /** numeric(17,2), read as text so money never passes through a float. */
  @Column({ name: 'contracted_revenue', type: 'numeric', precision: 17, scale: 2 })
  contractedRevenue!: string;

  /** `YYYY-MM-DD` as PostgreSQL returns a date. */
  @Column({ name: 'contract_date', type: 'date' })
  contractDate!: string;

  @Column({ type: 'text', default: 'WON' })
  status!: DealStatus;

  @CreateDateColumn({ name: 'created_at', type: 'timestamptz', precision: 3 })
  createdAt!: Date;

  @UpdateDateColumn({ name: 'updated_at', type: 'timestamptz', precision: 3 })
  updatedAt!: Date;
}
