import { randomUUID } from 'node:crypto';
import { entryHash, GENESIS_HASH, type AuditCheckpoint, type AuditEntry } from '@media/core';

/** `count` sealed entries of `app` from seq 1, each hashed on the one before, as an app exports them. */
export function sealedChain(app: string, count: number): AuditEntry[] {
  const entries: AuditEntry[] = [];
  let prev = GENESIS_HASH;
  for (let seq = 1; seq <= count; seq++) {
    const entry = {
      id: randomUUID(),
      seq,
      at: new Date(Date.UTC(2026, 10, 27, 12, 0, seq)).toISOString(),
      app,
      action: seq % 2 ? 'booking.updated' : 'booking.line.asset.updated',
      actor: { type: 'user' as const, id: randomUUID(), name: 'Ana Lima' },
      resource: { type: 'booking', id: randomUUID() },
      request_id: `req-${seq}`,
      cause: null,
      changes: {
        status: ['DRAFT', 'CONFIRMED'] as [unknown, unknown],
        note: [null, `n${seq}`] as [unknown, unknown],
      },
      prev_hash: prev,
    };
    prev = entryHash(entry);
    entries.push({ ...entry, hash: prev });
  }
  return entries;
}

/** The checkpoint of the chain's head at `entry`. */
export function checkpointOf(entry: AuditEntry): AuditCheckpoint {
  return {
    app: entry.app,
    seq: entry.seq,
    hash: entry.hash,
    at: new Date(Date.parse(entry.at) + 500).toISOString(),
  };
}

export type Signer = (checkpoint: AuditCheckpoint) => Promise<string>;

/**
 * The lines of an export: every entry, and right after each seq of `checkpointAt` its checkpoint
 * line signed by `sign`.
 */
export async function exportLines(
  entries: AuditEntry[],
  checkpointAt: number[],
  sign: Signer,
): Promise<string[]> {
  const lines: string[] = [];
  for (const entry of entries) {
    lines.push(JSON.stringify(entry));
    if (checkpointAt.includes(entry.seq)) {
      const checkpoint = checkpointOf(entry);
      lines.push(JSON.stringify({ checkpoint, jws: await sign(checkpoint) }));
    }
  }
  return lines;
}

/** An entry line re-hashed after an edit, as a forger who knows the scheme would write it. */
export function rehash(entry: AuditEntry, prevHash: string): AuditEntry {
  const edited = { ...entry, prev_hash: prevHash };
  return { ...edited, hash: entryHash(edited) };
}
