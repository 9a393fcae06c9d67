import { auditEntryOf, type AuditEntry } from '@media/core';
import type { AuditCopyEntry } from './audit-copy-entry.entity';

/** An entry of the merged copy: exactly the §8.1 object its app hashed, listed and exported. */
export type AuditCopyView = AuditEntry;

/** The copy's row as its app lists it: the platform's own mapping of an `audit_entries` row. */
export function toAuditCopyView(row: AuditCopyEntry): AuditCopyView {
  return auditEntryOf(row);
}
