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
 * Then chat-notifications' push claim beside an email backlog: DEAD notifications pushed long ago
 * whose emails are still pending (the mail server down) and LIVE newer ones waiting to be pushed,
 * by the index it read `before` (`notifications_pending_idx`, pushes or emails pending: it walks
 * past the whole backlog, live rows) and the one it reads `now` (`notifications_push_pending_idx`,
 * PushPendingIndex1765300000100); each pass drops the other index in its transaction, rolled back.
 *
 * Then chat-notifications' webhook worker's claim (`webhook_messages_due_idx`), over DEAD messages
 * delivered (leased, then marked: two old versions each in that index) and WEBHOOK_LIVE due, on
 * ENDPOINTS endpoints, a table too small for autovacuum ever to analyze it:
 *   - `before`: PostgreSQL's defaults (`jit = on`), as the worker ran before: its plan walked that
 *     index in order by itself, and was priced over `jit_above_cost` and compiled at every round;
 *   - `now`: as it runs now, INDEX_SCANS_ONLY (the same walk pinned, JIT off; every app's sessions
 *     also run with `-c jit=off`, libs/platform/src/database/database.ts).
 *
 *   npm run build --silent && node bench/queue-scans.mjs
 *
 * Env: BENCH_DATABASE_URL (admin connection; a database of each app's own, dropped after unless
 * KEEP_DB=1), DEAD (200,000), LIVE (300), WEBHOOK_LIVE (50: a queue that keeps up), ENDPOINTS (3),
 * PASSES (3). Writes bench/results/queue-scans.json.
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
const { CLAIM_PUSHES } = require(dist('apps/chat-notifications/src/notifications/delivery.worker.js'));
const { CLAIM_DUE, claimDueParams, REPLICA_CONCURRENCY } = require(
  dist('apps/chat-notifications/src/webhooks/webhooks.worker.js'),
);

const DEAD = Number(process.env.DEAD ?? 200_000);
const LIVE = Number(process.env.LIVE ?? 300);
const WEBHOOK_LIVE = Number(process.env.WEBHOOK_LIVE ?? 50);
const ENDPOINTS = Number(process.env.ENDPOINTS ?? 3);
const PASSES = Number(process.env.PASSES ?? 3);

/** The sealer's and the relay's plans: the settings each pass runs under, and how it reads the index. */
const SCANS = {
  bitmap: { settings: `set_config('enable_indexscan', 'off', true)`, scan: 'Bitmap Index Scan on' },
  index: { settings: INDEX_SCANS_ONLY, scan: 'Index Scan using' },
};

const QUEUES = {
  sealer: {
    app: 'payment',
    plans: SCANS,
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
    app: 'payment',
    plans: SCANS,
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
  pushes: {
    app: 'chat-notifications',
    plans: {
      before: {
        settings: INDEX_SCANS_ONLY,
        apart: 'notifications_push_pending_idx',
        index: 'notifications_pending_idx',
        scan: 'Index Scan using',
      },
      now: {
        settings: INDEX_SCANS_ONLY,
        apart: 'notifications_pending_idx',
        index: 'notifications_push_pending_idx',
        scan: 'Index Scan using',
      },
    },
    table: 'notifications',
    pass: [CLAIM_PUSHES, [100]],
    seed: async (db) => {
      // The index the claim read before (PushPendingIndex1765300000100 replaced it), beside its own.
      await db.query(
        `CREATE INDEX notifications_pending_idx ON notifications (created_at)
          WHERE websocket_status = 'pending' OR email_status = 'pending'`,
      );
      // An email backlog (the mail server down): pushed long ago, their emails still pending.
      await db.query(
        `INSERT INTO notifications (recipient_id, notification_type, title, websocket_status, email_status, created_at)
         SELECT gen_random_uuid(), 'custom', 'Hello', CASE WHEN g <= $1::int THEN 'sent' ELSE 'pending' END,
                CASE WHEN g <= $1::int THEN 'pending' ELSE 'skipped' END, now() - interval '1 day' + g * interval '1 ms'
           FROM generate_series(1, $1::int + $2::int) AS g`,
        [DEAD, LIVE],
      );
    },
  },
  webhooks: {
    app: 'chat-notifications',
    plans: {
      before: { settings: `set_config('jit', 'on', true)`, scan: 'Index Scan using' },
      now: { settings: INDEX_SCANS_ONLY, scan: 'Index Scan using' },
    },
    table: 'webhook_messages',
    index: 'webhook_messages_due_idx',
    // A replica's round with all of its room free, a lease of a minute.
    pass: [CLAIM_DUE, claimDueParams('00000000-0000-4000-8000-000000000000', 60_000, REPLICA_CONCURRENCY)],
    seed: async (db) => {
      await db.query(
        `INSERT INTO webhook_endpoints (id, url, event_types, secret_sealed)
         SELECT gen_random_uuid(), 'https://receiver.test/' || g, '{}', 'sealed' FROM generate_series(1, $1::int) AS g`,
        [ENDPOINTS],
      );
      await db.query(
        `INSERT INTO webhook_events (id, type, occurred_at, body)
         SELECT gen_random_uuid(), 'chat.message.created', now(), '{}' FROM generate_series(1, $1::int) AS g`,
        [DEAD + WEBHOOK_LIVE],
      );
      await db.query(
        `INSERT INTO webhook_messages (endpoint_id, event_id, type, next_attempt_at, created_at)
         SELECT e.id, ev.id, 'chat.message.created', at, at
           FROM (SELECT id, row_number() OVER () AS n FROM webhook_events) AS ev
           JOIN (SELECT id, row_number() OVER () - 1 AS k FROM webhook_endpoints) AS e ON e.k = ev.n % $1
           CROSS JOIN LATERAL (SELECT now() - interval '1 day' + ev.n * interval '1 ms' AS at) AS t`,
        [ENDPOINTS],
      );
      // Delivered as the worker delivers: leased (a new version, still due), then marked.
      const delivered = `SELECT id FROM webhook_messages ORDER BY next_attempt_at LIMIT ${DEAD}`;
      await db.query(
        `UPDATE webhook_messages SET lease_owner = gen_random_uuid(), lease_until = now() WHERE id IN (${delivered})`,
      );
      await db.query(
        `UPDATE webhook_messages
            SET status = 'delivered', attempts = 1, next_attempt_at = NULL, lease_owner = NULL, lease_until = NULL
          WHERE id IN (${delivered})`,
      );
    },
  },
};

/** A database of each app the queues are in, `name` → { create, drop, url }. */
const databases = new Map(
  [...new Set(Object.values(QUEUES).map((queue) => queue.app))].map((app) => [
    app,
    benchDatabase(`bench_queue_scans_${app.replace(/-/g, '_')}`),
  ]),
);

/**
 * One pass under `plan`, rolled back: how it read the queue's index, execution ms (JIT's included),
 * buffers read and JIT's ms (0 when the statement was not compiled).
 */
async function pass(db, queue, plan) {
  await db.query('BEGIN');
  try {
    const { settings, apart, index = queue.index } = queue.plans[plan];
    if (apart) await db.query(`DROP INDEX ${apart}`); // rolled back with the pass
    await db.query(`SELECT ${settings}`);
    const lines = await explain(db, ...queue.pass);
    const buffers = lines.find((line) => /Buffers: shared/.test(line));
    return {
      ms: executionMs(lines),
      jit_ms: Number(/Timing: .*Total ([\d.]+) ms/.exec(lines.join('\n'))?.[1] ?? 0),
      buffers:
        Number(/hit=(\d+)/.exec(buffers ?? '')?.[1] ?? 0) +
        Number(/read=(\d+)/.exec(buffers ?? '')?.[1] ?? 0),
      scan: lines
        .find((line) => line.includes(index))
        ?.replace(/^[\s>-]+/, '')
        .replace(/\s+\(.*$/, ''),
    };
  } finally {
    await db.query('ROLLBACK');
  }
}

/** Seeds `queue`'s table in `db` and measures each of its plans. */
async function measure(db, name, queue) {
  await db.query(`ALTER TABLE ${queue.table} SET (autovacuum_enabled = off)`);
  await queue.seed(db);
  await db.query(`ANALYZE ${queue.table}`);
  const plans = {};
  for (const [plan, { scan: read, index = queue.index }] of Object.entries(queue.plans)) {
    const passes = [];
    for (let i = 0; i < PASSES; i++) passes.push(await pass(db, queue, plan));
    const scan = `${read} ${index}`;
    assert(
      passes.every((p) => p.scan?.startsWith(scan)), // the table may carry an alias after it
      `${name}, ${plan}: ${passes.map((p) => p.scan).join('; ')}, not ${scan}`,
    );
    plans[plan] = {
      index,
      ms_per_pass: passes.map((p) => p.ms),
      jit_ms_per_pass: passes.map((p) => p.jit_ms),
      buffers_per_pass: passes.map((p) => p.buffers),
    };
    log(
      `${name}, ${plan}: ${passes.map((p) => `${p.ms} ms (JIT ${p.jit_ms} ms, ${p.buffers} buffers)`).join(', ')}`,
    );
  }
  return { table: queue.table, index: queue.index, ...plans };
}

async function main() {
  try {
    for (const [app, database] of databases) {
      await database.create();
      await applySchema(app, database.url);
    }
    const queues = {};
    for (const [name, queue] of Object.entries(QUEUES))
      queues[name] = await withClient(databases.get(queue.app).url, (db) => measure(db, name, queue));
    await writeResult('queue-scans.json', {
      benchmark: 'queue-scans',
      measured_at: new Date().toISOString(),
      machine: await withClient([...databases.values()][0].url, machine),
      dead_versions: DEAD,
      waiting_rows: LIVE,
      webhooks: { endpoints: ENDPOINTS, waiting_rows: WEBHOOK_LIVE },
      passes: PASSES,
      queues,
    });
  } finally {
    for (const database of databases.values()) await database.drop();
  }
}

main().catch((error) => {
  log(error.stack ?? String(error));
  process.exitCode = 1;
});
