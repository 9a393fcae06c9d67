import { Column, CreateDateColumn, Entity, PrimaryGeneratedColumn, UpdateDateColumn } from 'typeorm';

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
