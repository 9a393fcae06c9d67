#!/usr/bin/env node
/**
 * What a worker's pass over a queue costs once the rows it handled have left their old versions
 * behind in the queue's partial index (docs/operations/background-work.md, "Periodic jobs"): the
 * audit sealer's read of the unsealed entries (`audit_entries_unsealed_idx`) and the outbox
 * relay's claim (`outbox_pending_idx`), each over DEAD rows already handled (sealed, published:
 * an UPDATE each, so their old versions stay in the index until vacuum) and LIVE rows still
 * waiting, autovacuum off on the table so that nothing cleans up meanwhile.
 *
 * Each pass runs under EXPLAIN ANALYZE in a transaction rolled back (the claim's leases undone;
 * what a scan marks dead in the index stays so, as it does for the worker), PASSES times in each
 * of two plans, in this order:
 *   - `bitmap`: a bitmap scan of the index and a sort, the plan PostgreSQL chose under load when
 *     it expected fewer rows than the pass's LIMIT (forced here with index scans turned off);
 *   - `index`: the plan the workers now pin (INDEX_SCANS_ONLY, libs/kernel/src/database/index-scans.ts),
 *     an index scan in order, which marks each dead version in the index the first time.
 * The bitmap plan goes first: after the index scan marked the dead versions, a bitmap scan steps
 * over them too.
 *
 *   npm run build --silent && node bench/queue-scans.mjs
 *
 * Env: BENCH_DATABASE_URL (admin connection; a database of its own, dropped after unless
 * KEEP_DB=1), DEAD (200,000), LIVE (300), PASSES (3). Writes bench/results/queue-scans.json.
 */
import { createRequire } from 'node:module';
import { explain, executionMs } from './lib/app-server.mjs';
import {
  applySchema,
  assert,
  benchDatabase,
  dist,
  log,
  machine,
  withClient,
  writeResult,
} from './lib/seed-users.mjs';

const require = createRequire(import.meta.url);
const { INDEX_SCANS_ONLY } = require(dist('libs/kernel/src/database/index-scans.js'));
const { UNSEALED_ENTRIES } = require(dist('libs/platform/src/audit/sealer.js'));
const { CLAIM_PENDING } = require(dist('libs/messaging/src/outbox/outbox.js'));

const DEAD = Number(process.env.DEAD ?? 200_000);
const LIVE = Number(process.env.LIVE ?? 300);
const PASSES = Number(process.env.PASSES ?? 3);

const PLANS = {
  bitmap: `set_config('enable_indexscan', 'off', true)`,
  index: INDEX_SCANS_ONLY,
};

const QUEUES = {
  sealer: {
    table: 'audit_entries',
    index: 'audit_entries_unsealed_idx',
    pass: [UNSEALED_ENTRIES, [500]],
    seed: async (db) => {
      await db.query(
        `INSERT INTO audit_entries (app, action, actor_type, actor_id, resource_type, resource_id, changes)
         SELECT 'payment', 'commission.updated', 'user', 'bench', 'commission', 'c-' || g,
                '{"status": ["DRAFT", "APPROVED"]}'
           FROM generate_series(1, $1::int) AS g`,
        [DEAD + LIVE],
      );
      // Sealed as the sealer seals (the append-only guard lets this one UPDATE through).
      await db.query(
        `UPDATE audit_entries e SET seq = n.seq, prev_hash = md5(n.seq::text), hash = md5(n.seq::text)
           FROM (SELECT id, row_number() OVER (ORDER BY recorded) AS seq FROM audit_entries) AS n
          WHERE e.id = n.id AND n.seq <= $1`,
        [DEAD],
      );
    },
  },
  relay: {
    table: 'outbox',
    index: 'outbox_pending_idx',
    pass: [CLAIM_PENDING, [100, 30]],
    seed: async (db) => {
      await db.query(
        `INSERT INTO outbox (subject, payload, created_at)
         SELECT 'payment.commission.approved', '{"commission_id": "c"}', now() - interval '1 day' + g * interval '1 ms'
           FROM generate_series(1, $1::int) AS g`,
        [DEAD + LIVE],
      );
      await db.query(
        `UPDATE outbox SET published_at = now()
          WHERE id IN (SELECT id FROM outbox ORDER BY created_at LIMIT $1)`,
        [DEAD],
      );
    },
  },
};

const database = benchDatabase('bench_queue_scans');

/** One pass under `plan`, rolled back: how it read the queue's index, execution ms and buffers read. */
async function pass(db, queue, plan) {
  await db.query('BEGIN');
  try {
    await db.query(`SELECT ${PLANS[plan]}`);
    const lines = await explain(db, ...queue.pass);
    const buffers = lines.find((line) => /Buffers: shared/.test(line));
    return {
      ms: executionMs(lines),
      buffers:
        Number(/hit=(\d+)/.exec(buffers ?? '')?.[1] ?? 0) +
        Number(/read=(\d+)/.exec(buffers ?? '')?.[1] ?? 0),
      scan: lines
        .find((line) => line.includes(queue.index))
        ?.replace(/^[\s>-]+/, '')
        .replace(/\s+\(.*$/, ''),
    };
  } finally {
    await db.query('ROLLBACK');
  }
}

async function main() {
  await database.create();
  try {
    await applySchema('payment', database.url);
    const report = await withClient(database.url, async (db) => {
      const queues = {};
      for (const [name, queue] of Object.entries(QUEUES)) {
        await db.query(`ALTER TABLE ${queue.table} SET (autovacuum_enabled = off)`);
        await queue.seed(db);
        await db.query(`ANALYZE ${queue.table}`);
        const plans = {};
        for (const plan of Object.keys(PLANS)) {
          const passes = [];
          for (let i = 0; i < PASSES; i++) passes.push(await pass(db, queue, plan));
          const scan =
            plan === 'bitmap'
              ? `Bitmap Index Scan on ${queue.index}`
              : `Index Scan using ${queue.index} on ${queue.table}`;
          assert(
            passes.every((p) => p.scan?.startsWith(scan)), // the table may carry an alias after it
            `${name}, ${plan}: ${passes.map((p) => p.scan).join('; ')}, not ${scan}`,
          );
          plans[plan] = {
            ms_per_pass: passes.map((p) => p.ms),
            buffers_per_pass: passes.map((p) => p.buffers),
          };
          log(`${name}, ${plan}: ${passes.map((p) => `${p.ms} ms (${p.buffers} buffers)`).join(', ')}`);
        }
        queues[name] = { table: queue.table, index: queue.index, ...plans };
      }
      return {
        benchmark: 'queue-scans',
        measured_at: new Date().toISOString(),
        machine: await machine(db),
        dead_versions: DEAD,
        waiting_rows: LIVE,
        passes: PASSES,
        queues,
      };
    });
    await writeResult('queue-scans.json', report);
  } finally {
    await database.drop();
  }
}

main().catch((error) => {
  log(error.stack ?? String(error));
  process.exitCode = 1;
});
