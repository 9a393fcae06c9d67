import type { AuditCheckpoint, AuditCheckpointLine, AuditEntry } from './chain';

/** A sealed row of `audit_entries` as `SELECT *` answers it. */
export interface AuditEntryRow {
  id: string;
  seq: string | number;
  at: Date;
  app: string;
  action: string;
  actor_type: 'user' | 'system';
  actor_id: string;
  actor_name: string | null;
  resource_type: string;
  resource_id: string | null;
  request_id: string | null;
  cause: string | null;
  changes: Record<string, [unknown, unknown]>;
  prev_hash: string;
  hash: string;
}

/** A row of `audit_checkpoints`. */
export interface AuditCheckpointRow {
  seq: string | number;
  hash: string;
  at: Date;
  kid: string;
  jws: string;
}

/** The §8.1 entry of a row: what is hashed, listed and exported, byte for byte the same. */
export function auditEntryOf(row: AuditEntryRow): AuditEntry {
  return {
    id: row.id,
    seq: Number(row.seq),
    at: row.at.toISOString(),
    app: row.app,
    action: row.action,
    actor: { type: row.actor_type, id: row.actor_id, name: row.actor_name },
    resource: { type: row.resource_type, id: row.resource_id },
    request_id: row.request_id,
    cause: row.cause,
    changes: row.changes,
    prev_hash: row.prev_hash,
    hash: row.hash,
  };
}

/** The export line of a checkpoint row. */
export function checkpointLineOf(app: string, row: AuditCheckpointRow): AuditCheckpointLine {
  const checkpoint: AuditCheckpoint = { app, seq: Number(row.seq), hash: row.hash, at: row.at.toISOString() };
  return { checkpoint, jws: row.jws };
}
