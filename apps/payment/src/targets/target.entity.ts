import { Column, CreateDateColumn, Entity, PrimaryGeneratedColumn, UpdateDateColumn } from 'typeorm';

/** A BM's target for one category and month; unique on (bm, category, month, year). */
@Entity({ name: 'commission_targets' })
export class CommissionTarget {
  @PrimaryGeneratedColumn('uuid')
  id!: string;

  @Column({ name: 'bm_id', type: 'uuid' })
  bmId!: string;

  @Column({ type: 'text' })
  category!: string;

  @Column({ type: 'smallint' })
  month!: number;

  @Column({ type: 'int' })
  year!: number;

  @Column({ name: 'target_amount', type: 'numeric', precision: 17, scale: 2 })
  targetAmount!: string;

  @CreateDateColumn({ name: 'created_at', type: 'timestamptz', precision: 3 })
  createdAt!: Date;

  @UpdateDateColumn({ name: 'updated_at', type: 'timestamptz', precision: 3 })
  updatedAt!: Date;
}
