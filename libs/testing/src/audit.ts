import {
  auditEntryOf,
  ChainWalker,
  entryHash,
  GENESIS_HASH,
  type AuditEntry,
  type AuditEntryRow,
} from '@media/core';
import { queryDatabase } from './databases';
import { eventually } from './poll';

/** An entry before the sealer gave it its place in the chain (`seq`, `prev_hash`, `hash`). */
export type UnchainedEntry = Omit<AuditEntry, 'seq' | 'prev_hash' | 'hash'>;

/**
 * `entries` chained as the sealer chains them: seq from `start.seq` on, each `prev_hash` the hash
 * of the entry before (`start.prevHash`, the genesis hash by default, for the first), each `hash`
 * the platform's `entryHash` of the §8.1 object.
 */
export function chainEntries(
  entries: UnchainedEntry[],
  start: { seq: number; prevHash: string } = { seq: 1, prevHash: GENESIS_HASH },
): AuditEntry[] {
  let prevHash = start.prevHash;
  return entries.map((entry, i) => {
    const unsealed = { ...entry, seq: start.seq + i, prev_hash: prevHash };
    prevHash = entryHash(unsealed);
    return { ...unsealed, hash: prevHash };
  });
}

/** A database client (pg's `Client` or `Pool`). */
interface Queryable {
  query(sql: string, params?: unknown[]): Promise<unknown>;
}

/**
 * Inserts sealed entries into `audit_entries` as they are, in one statement: a chain (or a
 * tampered one) written directly, standing in for the sealer. Each entry's columns are the ones
 * `auditEntryOf` reads back.
 */
export async function insertSealedEntries(db: Queryable, entries: AuditEntry[]): Promise<void> {
  if (entries.length === 0) return;
  const column = <T>(of: (entry: AuditEntry) => T) => entries.map(of);
  await db.query(
    `INSERT INTO audit_entries (id, seq, at, app, action, actor_type, actor_id, actor_name, resource_type,
       resource_id, request_id, cause, changes, prev_hash, hash)
     SELECT * FROM unnest($1::uuid[], $2::bigint[], $3::timestamptz[], $4::text[], $5::text[], $6::text[],
       $7::text[], $8::text[], $9::text[], $10::text[], $11::text[], $12::text[], $13::jsonb[], $14::text[],
       $15::text[])`,
    [
      column((e) => e.id),
      column((e) => e.seq),
      column((e) => e.at),
      column((e) => e.app),
      column((e) => e.action),
      column((e) => e.actor.type),
      column((e) => e.actor.id),
      column((e) => e.actor.name),
      column((e) => e.resource.type),
      column((e) => e.resource.id),
      column((e) => e.request_id),
      column((e) => e.cause),
      column((e) => JSON.stringify(e.changes)),
      column((e) => e.prev_hash),
      column((e) => e.hash),
    ],
  );
}

/**
 * The sealed audit entries of one resource (oldest first), once `count` of them are sealed: the
 * sealer seals each within 2 s of its commit.
 */
export async function sealedEntries(
  database: string,
  resource: { type?: string; id: string },
  count: number,
): Promise<AuditEntry[]> {
  const read = async () =>
    (
      await queryDatabase<AuditEntryRow & Record<string, unknown>>(
        database,
        `SELECT * FROM audit_entries WHERE resource_id = $1 AND ($2::text IS NULL OR resource_type = $2)
          ORDER BY recorded`,
        [resource.id, resource.type ?? null],
      )
    ).map((row) => row);
  const rows = await eventually(read, (r) => r.length >= count && r.every((row) => row.hash !== null), {
    timeoutMs: 5_000,
    orThrow: `${count} sealed audit entries of ${resource.type ?? ''} ${resource.id}`,
  });
  return rows.map((row) => auditEntryOf(row));
}

/** Every recorded entry of a resource, sealed or not (what a rollback must not leave). */
export async function recordedEntries(database: string, resourceId: string): Promise<number> {
  const [{ n }] = await queryDatabase<{ n: number }>(
    database,
    `SELECT count(*)::int AS n FROM audit_entries WHERE resource_id = $1`,
    [resourceId],
  );
  return n;
}

/**
 * Walks the whole stored chain (from its oldest kept checkpoint when retention pruned a prefix)
 * with `ChainWalker`, once every entry is sealed; answers the walker.
 */
export async function walkStoredChain(database: string): Promise<ChainWalker> {
  await eventually(
    () =>
      queryDatabase<{ n: number }>(
        database,
        `SELECT count(*)::int AS n FROM audit_entries WHERE seq IS NULL`,
      ),
    ([row]) => row.n === 0,
    { timeoutMs: 10_000, orThrow: 'every audit entry sealed' },
  );
  const [first] = await queryDatabase<{ seq: string }>(database, `SELECT min(seq) AS seq FROM audit_entries`);
  const start =
    first.seq === null || Number(first.seq) === 1
      ? { seq: 1, prevHash: GENESIS_HASH }
      : await queryDatabase<{ seq: string; hash: string }>(
          database,
          `SELECT seq, hash FROM audit_checkpoints WHERE seq = $1`,
          [Number(first.seq) - 1],
        ).then(([kept]) => ({ seq: Number(kept.seq) + 1, prevHash: kept.hash }));
  const walker = new ChainWalker(start);
  const rows = await queryDatabase<AuditEntryRow & Record<string, unknown>>(
    database,
    `SELECT * FROM audit_entries ORDER BY seq`,
  );
  for (const row of rows) walker.next(auditEntryOf(row));
  return walker;
}
