import { Column, Entity, PrimaryColumn } from 'typeorm';
import type { AuditEntryRow } from '@media/core';
import { AuditEntryColumns } from '@media/platform';

/** One sealed audit entry of any app, as the AUDIT stream carried it (acl's merged copy). */
@Entity({ name: 'audit_all' })
export class AuditCopyEntry extends AuditEntryColumns implements AuditEntryRow {
  @PrimaryColumn({ type: 'text' })
  app!: string;

  /** bigint: read back as a string. */
  @PrimaryColumn({ type: 'bigint' })
  seq!: string;

  @Column({ type: 'uuid' })
  id!: string;
}
