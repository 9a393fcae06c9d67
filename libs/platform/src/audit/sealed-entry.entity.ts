import { Column, Entity, PrimaryColumn } from 'typeorm';
import type { AuditEntryRow } from '@media/core';

/**
 * The columns of a sealed audit entry that every table holding one has alike, under their own
 * names, so that a row is an `AuditEntryRow` and `auditEntryOf` maps it. Each table adds `id`,
 * `app` and `seq` with its own key: an app's `audit_entries` is keyed by the entry's id, acl's
 * merged copy by (app, seq).
 */
export abstract class AuditEntryColumns implements Omit<AuditEntryRow, 'id' | 'app' | 'seq'> {
  @Column({ type: 'timestamptz', precision: 3 })
  at!: Date;

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

/** `audit_entries` as the reading side queries it (the keyset list). Never written through. */
@Entity({ name: 'audit_entries' })
export class SealedAuditEntry extends AuditEntryColumns implements AuditEntryRow {
  @PrimaryColumn({ type: 'uuid' })
  id!: string;

  /** bigint: read back as a string. */
  @Column({ type: 'bigint' })
  seq!: string;

  @Column({ type: 'text' })
  app!: string;
}
