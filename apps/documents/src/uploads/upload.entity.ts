import { Column, Entity, PrimaryColumn } from 'typeorm';
import type { ResumableState } from '../storage/document-storage';

/** bigint comes back from pg as text; sizes stay far below 2^53. */
const bigintAsNumber = { to: (v: number) => v, from: (v: string | null) => (v === null ? null : Number(v)) };

/**
 * A resumable upload in progress. `offset` bytes are stored (by the storage driver, which keeps
 * its own `storage_state`), and `hash_state` is the SHA-256 state after exactly those bytes, so
 * the next chunk continues the hash wherever it lands. `busy_*` is the lease of the replica
 * receiving a chunk: one chunk at a time, and a replica that died releases it by expiring.
 */
@Entity({ name: 'uploads' })
export class Upload {
  /** The document's id once complete; also the key in storage. */
  @PrimaryColumn({ type: 'uuid' })
  id!: string;

  @Column({ type: 'uuid' })
  owner!: string;

  @Column({ type: 'bigint', transformer: bigintAsNumber })
  length!: number;

  @Column({ type: 'bigint', transformer: bigintAsNumber })
  offset!: number;

  @Column({ type: 'text' })
  filename!: string;

  @Column({ name: 'content_type', type: 'text' })
  contentType!: string;

  /** `Upload-Metadata` as the client sent it, echoed by HEAD. */
  @Column({ type: 'text', nullable: true })
  metadata!: string | null;

  @Column({ name: 'hash_state', type: 'bytea' })
  hashState!: Buffer;

  @Column({ name: 'storage_state', type: 'jsonb' })
  storageState!: ResumableState;

  @Column({ name: 'expires_at', type: 'timestamptz', precision: 3 })
  expiresAt!: Date;

  @Column({ name: 'busy_token', type: 'uuid', nullable: true })
  busyToken!: string | null;

  @Column({ name: 'busy_until', type: 'timestamptz', precision: 3, nullable: true })
  busyUntil!: Date | null;

  @Column({ name: 'created_at', type: 'timestamptz', precision: 3, default: () => 'now()' })
  createdAt!: Date;
}
