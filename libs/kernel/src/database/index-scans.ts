import type { DataSource, EntityManager } from 'typeorm';

/**
 * Planner settings, as a `SELECT` list, for the rest of the transaction: bitmap and sequential
 * scans turned off (`set_config(..., true)` lasts until the transaction ends). PostgreSQL then
 * prices them so high that it reads a table through an index walked in order wherever one serves.
 * JIT is turned off with them: a plan that still needs a sequential scan (a table no index of
 * which serves the statement) carries that price, 10^10, far over `jit_above_cost`, and would be
 * compiled at every pass (430 to 630 ms a pass, measured by hand, for the webhook worker's claim,
 * whose endpoints are read whole; docs/benchmarks.md). PostgreSQL 18 counts disabled plan nodes
 * instead of pricing them; turning JIT off costs nothing there. A queue's pass is a short statement
 * that JIT never pays for.
 *
 * For a worker's pass over a queue kept by a partial index on a state its own UPDATE changes (the
 * audit sealer's unsealed entries, the outbox's pending rows, chat-notifications' pending pushes
 * and emails and its due webhook messages). Each row a pass handles leaves its old version in that index until vacuum, and
 * autovacuum comes only after a fifth of the table has changed, so the longer the table, the more
 * of them. A bitmap scan visits every one of them in the table at every pass; an index scan marks
 * each one dead in the index once no snapshot can still see it (a long transaction, a replication
 * slot or a standby's feedback holds that back) and steps over it after. With 200,000 of them,
 * 10 ms a pass against 0.65 ms for the sealer on one machine, 21.6 against 1.9 on a slower one
 * (bench/queue-scans.mjs).
 * PostgreSQL can choose the bitmap scan when it expects fewer rows than the pass's LIMIT, as a
 * queue that keeps up usually looks.
 */
export const INDEX_SCANS_ONLY = [
  `set_config('enable_bitmapscan', 'off', true)`,
  `set_config('enable_seqscan', 'off', true)`,
  `set_config('jit', 'off', true)`,
].join(', ');

/** Runs `work` in a transaction of `dataSource` whose statements read as INDEX_SCANS_ONLY says. */
export function inIndexScansTransaction<T>(
  dataSource: DataSource,
  work: (manager: EntityManager) => Promise<T>,
): Promise<T> {
  return dataSource.transaction(async (manager) => {
    await manager.query(`SELECT ${INDEX_SCANS_ONLY}`);
    return work(manager);
  });
}
