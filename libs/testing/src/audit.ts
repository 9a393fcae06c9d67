import { auditEntryOf, ChainWalker, GENESIS_HASH, type AuditEntry, type AuditEntryRow } from '@media/core';
import { queryDatabase } from './databases';
import { eventually } from './poll';

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
