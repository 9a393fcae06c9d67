import { Column, Entity, PrimaryColumn } from 'typeorm';
import type { AuditEntryRow } from '@media/core';

/**
 * One sealed audit entry of any app, as the AUDIT stream carried it (acl's merged copy): the
 * columns under their own names, as in every app's `audit_entries`, so a row is an
 * `AuditEntryRow` and the platform's `auditEntryOf` maps it.
 */
@Entity({ name: 'audit_all' })
export class AuditCopyEntry implements AuditEntryRow {
  @PrimaryColumn({ type: 'text' })
  app!: string;

  /** bigint: read back as a string. */
  @PrimaryColumn({ type: 'bigint' })
  seq!: string;

  @Column({ type: 'uuid' })
  id!: string;

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
