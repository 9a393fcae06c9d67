/**
 * Planner settings, as a `SELECT` list, that make the rest of the transaction read tables only
 * through indexes walked in order: no bitmap scan and no sequential scan (`set_config(..., true)`
 * lasts until the transaction ends).
 *
 * For a worker's pass over a queue kept by a partial index on a state its own UPDATE changes (the
 * audit sealer's unsealed entries, the outbox's pending rows). Each row a pass handles leaves its
 * old version in that index until vacuum, and autovacuum comes only after a fifth of the table has
 * changed, so the longer the table, the more of them. A bitmap scan visits every one of them in
 * the table at every pass (17 ms a pass with 200,000 of them); an index scan marks each one dead
 * in the index the first time it meets it and steps over it after (0.5 ms). PostgreSQL chooses the
 * bitmap scan whenever it expects fewer rows than the pass's LIMIT, as a queue that keeps up
 * usually looks (docs/benchmarks.md, "The sealer's plans").
 */
export const INDEX_SCANS_ONLY = `set_config('enable_bitmapscan', 'off', true), set_config('enable_seqscan', 'off', true)`;
