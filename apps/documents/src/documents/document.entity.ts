import { Column, Entity, PrimaryColumn } from 'typeorm';

/** bigint comes back from pg as text; sizes stay far below 2^53. */
const bigintAsNumber = { to: (v: number) => v, from: (v: string | null) => (v === null ? null : Number(v)) };

/**
 * A stored document's record. Deleting one sets `deleted_at` (the row stays, so a late reader
 * and the event agree on who uploaded it); `file_removed_at` records that its stored file is
 * gone, which the sweeper completes when the removal after commit did not happen.
 */
@Entity({ name: 'documents' })
export class Document {
  /** Also the file's key in storage. */
  @PrimaryColumn({ type: 'uuid' })
  id!: string;

  @Column({ type: 'text' })
  filename!: string;

  @Column({ name: 'content_type', type: 'text' })
  contentType!: string;

  @Column({ type: 'bigint', transformer: bigintAsNumber })
  size!: number;

  @Column({ type: 'char', length: 64 })
  sha256!: string;

  @Column({ name: 'uploaded_by', type: 'uuid' })
  uploadedBy!: string;

  @Column({ name: 'created_at', type: 'timestamptz', precision: 3, default: () => 'now()' })
  createdAt!: Date;

  @Column({ name: 'deleted_at', type: 'timestamptz', precision: 3, nullable: true })
  deletedAt!: Date | null;

  @Column({ name: 'deleted_by', type: 'uuid', nullable: true })
  deletedBy!: string | null;

  @Column({ name: 'file_removed_at', type: 'timestamptz', precision: 3, nullable: true })
  fileRemovedAt!: Date | null;
}
