import { Column, CreateDateColumn, Entity, PrimaryGeneratedColumn } from 'typeorm';

/** Money a BM collected for a category; counted in the UTC month of `collected_at`. */
@Entity({ name: 'collections' })
export class Collection {
  @PrimaryGeneratedColumn('uuid')
  id!: string;

  @Column({ name: 'bm_id', type: 'uuid' })
  bmId!: string;

  @Column({ type: 'text' })
  category!: string;

  @Column({ type: 'numeric', precision: 17, scale: 2 })
  amount!: string;

  @Column({ name: 'collected_at', type: 'timestamptz', precision: 3 })
  collectedAt!: Date;

  @CreateDateColumn({ name: 'created_at', type: 'timestamptz', precision: 3 })
  createdAt!: Date;
}
