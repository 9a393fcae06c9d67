import type { AuditEntry } from '@media/core';
import type { AuditCopyEntry } from './audit-copy-entry.entity';

/** An entry of the merged copy: exactly the §8.1 object its app hashed, listed and exported. */
export type AuditCopyView = AuditEntry;

export function toAuditCopyView(row: AuditCopyEntry): AuditCopyView {
  return {
    id: row.id,
    seq: Number(row.seq),
    at: row.at.toISOString(),
    app: row.app,
    action: row.action,
    actor: { type: row.actorType, id: row.actorId, name: row.actorName },
    resource: { type: row.resourceType, id: row.resourceId },
    request_id: row.requestId,
    cause: row.cause,
    changes: row.changes,
    prev_hash: row.prevHash,
    hash: row.hash,
  };
}
