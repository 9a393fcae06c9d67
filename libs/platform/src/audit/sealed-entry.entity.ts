import { Column, Entity, PrimaryColumn } from 'typeorm';
import type { AuditEntryRow } from '@media/core';

/**
 * `audit_entries` as the reading side queries it (the keyset list): the columns under their own
 * names, so a row is an `AuditEntryRow` and `auditEntryOf` maps it. Never written through.
 */
@Entity({ name: 'audit_entries' })
export class SealedAuditEntry implements AuditEntryRow {
  @PrimaryColumn({ type: 'uuid' })
  id!: string;

  @Column({ type: 'bigint' })
  seq!: string;

  @Column({ type: 'timestamptz', precision: 3 })
  at!: Date;

  @Column({ type: 'text' })
  app!: string;

  @Column({ type: 'text' })
  action!: string;

  @Column({ type: 'text' })
  actor_type!: 'user' | 'system';

  @Column({ type: 'text' })
  actor_id!: string;

  @Column({ type: 'text', nullable: true })
  actor_name!: string | null;

  @Column({ type: 'text' })
  resource_type!: string;

  @Column({ type: 'text', nullable: true })
  resource_id!: string | null;

  @Column({ type: 'text', nullable: true })
  request_id!: string | null;

  @Column({ type: 'text', nullable: true })
  cause!: string | null;

  @Column({ type: 'jsonb' })
  changes!: Record<string, [unknown, unknown]>;

  @Column({ type: 'text' })
  prev_hash!: string;

  @Column({ type: 'text' })
  hash!: string;
}
