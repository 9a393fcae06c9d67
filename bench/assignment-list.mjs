#!/usr/bin/env node
/**
 * The task list at 1,000,000 tasks (docs/api/contract.md §3 keyset pagination, never OFFSET): GET
 * /assignment/api/v1/tasks?status=OPEN, its first page and page 5,000 (20 per page, so the 100,000
 * rows before it are skipped by the index, not read), through the gateway and straight to
 * assignment, with EXPLAIN (ANALYZE, BUFFERS) of the keyset window and, for contrast, of the
 * OFFSET query that would fetch the same page.
 *
 *   npx nx run-many -t build && NATS_URL=nats://127.0.0.1:4222 node bench/assignment-list.mjs
 *
 * Seed: TASKS tasks (default 1,000,000) inserted by SQL into assignment's own migrated database
 * (the app's indexes dropped for the bulk insert and recreated from their own definitions):
 * created_at one every 30 s back from now; status OPEN 40%, CLAIMED 20%, IN_PROGRESS 10%,
 * COMPLETED 25%, CANCELLED 5%; due dates in the future or none (the escalation job stays idle).
 *
 * Page 5,000: a client reaches it by following `next` 4,999 times. This script signs the cursor
 * for the row before it with the app's CursorCodec and CURSOR_SECRET after checking, on a walk of
 * the first pages, that the cursor it signs is byte for byte the `next` the app returns; then
 * checks the page's rows against SQL's order.
 *
 * Env: NATS_URL, BENCH_DATABASE_URL, TASKS, SEQUENTIAL (200), CONNECTIONS (10), DURATION (5),
 * KEEP_DB=1. Writes bench/results/assignment-list.json.
 */
import { createRequire } from 'node:module';
import { loadavg } from 'node:os';
import { executionMs, explain, httpClient, percentiles, runAutocannon } from './lib/app-server.mjs';
import { startAssignmentStack } from './lib/assignment-stack.mjs';
import { assert, dist, log, machine, seconds, withClient, writeResult } from './lib/seed-users.mjs';

const require = createRequire(import.meta.url);
const { CursorCodec } = require(dist('libs/http/src/pagination/cursor.js'));

const NATS_URL = process.env.NATS_URL ?? 'nats://127.0.0.1:4222';
const TASKS = Number(process.env.TASKS ?? 1_000_000);
const SEQUENTIAL = Number(process.env.SEQUENTIAL ?? 200);
const CONNECTIONS = Number(process.env.CONNECTIONS ?? 10);
const DURATION = Number(process.env.DURATION ?? 5);
const PAGE = 5000;
const PAGE_SIZE = 20;
const PATH = '/assignment/api/v1/tasks';
const ROUNDS = 10;

/** The figures of bench/results/assignment-list.json: p50, p90 and p99. */
const figures = (samples) => percentiles(samples, { quantiles: [50, 90, 99], max: false });

async function seed(db) {
  const indexes = (
    await db.query(
      `SELECT indexname, indexdef FROM pg_indexes WHERE tablename = 'tasks' AND indexname <> 'tasks_pkey'`,
    )
  ).rows;
  for (const { indexname } of indexes) await db.query(`DROP INDEX ${indexname}`);
  let start = performance.now();
  await db.query(
    `INSERT INTO tasks (status, priority, workflow_node_code, node_preview_name, assigned_to, assigned_at,
                        completed_at, due_at, entity_type, entity_id, created_at, updated_at)
     SELECT s.status,
            (ARRAY['LOW','MEDIUM','HIGH','URGENT'])[1 + g % 4],
            'node-' || (g % 50), 'Task ' || g,
            CASE WHEN s.status IN ('CLAIMED','IN_PROGRESS','COMPLETED') THEN md5('user' || (g % 50))::uuid END,
            CASE WHEN s.status IN ('CLAIMED','IN_PROGRESS','COMPLETED') THEN c.at END,
            CASE WHEN s.status = 'COMPLETED' THEN c.at END,
            CASE WHEN g % 2 = 0 THEN now() + (g % 90) * interval '1 day' END,
            (ARRAY['booking','schedule','document','deal','client'])[1 + g % 5],
            md5('entity' || (g % 100000))::uuid,
            c.at, c.at
       FROM generate_series(1, $1) g
      CROSS JOIN LATERAL (SELECT now() - g * interval '30 seconds' AS at) c
      CROSS JOIN LATERAL (SELECT CASE
              WHEN g % 20 < 8 THEN 'OPEN' WHEN g % 20 < 12 THEN 'CLAIMED' WHEN g % 20 < 14 THEN 'IN_PROGRESS'
              WHEN g % 20 < 19 THEN 'COMPLETED' ELSE 'CANCELLED' END AS status) s`,
    [TASKS],
  );
  const insertSeconds = seconds(start);
  start = performance.now();
  for (const { indexdef } of indexes) await db.query(indexdef);
  const indexSeconds = seconds(start);
  start = performance.now();
  await db.query('VACUUM ANALYZE tasks');
  return {
    insertSeconds,
    indexSeconds,
    vacuumSeconds: seconds(start),
    indexes: indexes.map((i) => i.indexname),
  };
}

/** EXPLAIN (ANALYZE, BUFFERS) of a statement with its execution time. */
async function explained(db, sql, params) {
  const lines = await explain(db, sql, params);
  return { sql: sql.replace(/\s+/g, ' ').trim(), execution_ms: executionMs(lines), explain: lines };
}

async function main() {
  const stack = await startAssignmentStack({
    prefix: 'bench_assignment_list',
    natsUrl: NATS_URL,
    env: { ESCALATION_CHECK_INTERVAL: '1h' },
  });
  try {
    await withClient(stack.databases.assignment.url, async (db) => {
      const host = await machine(db);
      log(`seeding ${TASKS} tasks`);
      const seeded = await seed(db);
      log(
        `inserted in ${seeded.insertSeconds} s, indexes ${seeded.indexSeconds} s, vacuum ${seeded.vacuumSeconds} s`,
      );
      const open = (
        await db.query(`SELECT count(*)::int AS n FROM tasks WHERE status = 'OPEN' AND deleted_at IS NULL`)
      ).rows[0].n;
      const token = stack.token({ permissions: ['tasks:read'] });
      const codec = new CursorCodec(stack.cursorSecret);
      const scope = `GET ${PATH}`;
      const keyAt = async (rank) => {
        const row = (
          await db.query(
            `SELECT created_at, id FROM tasks WHERE deleted_at IS NULL AND status = 'OPEN'
              ORDER BY created_at DESC, id DESC OFFSET $1 LIMIT 1`,
            [rank],
          )
        ).rows[0];
        return [row.created_at.toISOString(), row.id];
      };
      const idsFrom = async (rank, count) =>
        (
          await db.query(
            `SELECT id FROM tasks WHERE deleted_at IS NULL AND status = 'OPEN'
              ORDER BY created_at DESC, id DESC OFFSET $1 LIMIT $2`,
            [rank, count],
          )
        ).rows.map((r) => r.id);
      const cursorAfter = async (rank) => codec.encode(scope, { d: 'n', k: await keyAt(rank) });

      const urls = {};
      for (const [via, base] of Object.entries({
        gateway: stack.urls.gateway,
        direct: stack.urls.assignment,
      })) {
        const first = `${base}${PATH}?status=OPEN&page_size=${PAGE_SIZE}`;
        urls[via] = { first, deep: `${first}&cursor=${await cursorAfter((PAGE - 1) * PAGE_SIZE - 1)}` };
      }

      // The signed cursor is the app's own: walk three pages with its links and compare.
      const http = {
        gateway: httpClient(stack.urls.gateway, token),
        direct: httpClient(stack.urls.assignment, token),
      };
      let page = (await http.gateway.get(urls.gateway.first)).body;
      for (let i = 1; i < 3; i++) page = (await http.gateway.get(page.next)).body;
      const theirs = new URL(page.next).searchParams.get('cursor');
      assert(
        theirs === (await cursorAfter(3 * PAGE_SIZE - 1)),
        'the cursor signed here differs from the app’s next',
      );
      const deepPage = (await http.gateway.get(urls.gateway.deep)).body;
      const expected = await idsFrom((PAGE - 1) * PAGE_SIZE, PAGE_SIZE);
      assert(
        deepPage.results.length === PAGE_SIZE && deepPage.results.every((r, i) => r.id === expected[i]),
        'page 5000 is not the rows SQL has there',
      );
      assert(deepPage.next !== null && deepPage.previous !== null, 'page 5000 should have both links');

      const cases = [];
      for (const via of ['gateway', 'direct'])
        for (const position of ['first', 'deep'])
          cases.push({ via, position, url: urls[via][position], samples: [] });
      for (const c of cases) for (let i = 0; i < 20; i++) await http[c.via].get(c.url);
      for (let round = 0; round < ROUNDS; round++)
        for (const c of cases)
          for (let i = 0; i < SEQUENTIAL / ROUNDS; i++) c.samples.push((await http[c.via].get(c.url)).ms);
      for (const c of cases) {
        c.sequential = figures(c.samples);
        const load = loadavg()[0];
        const loaded = await runAutocannon({
          url: c.url,
          connections: CONNECTIONS,
          duration: DURATION,
          headers: { authorization: `Bearer ${token}` },
        });
        assert(loaded.errors === 0 && loaded.non2xx === 0, `${c.via} ${c.position}: errors or non-2xx`);
        c.autocannon = {
          connections: CONNECTIONS,
          duration_seconds: DURATION,
          requests_per_second: Math.round(loaded.requests.average),
          p50_ms: loaded.latency.p50,
          p99_ms: loaded.latency.p99,
          load_average_1m_before: Number(load.toFixed(1)),
        };
        log(
          `${c.via} ${c.position}: sequential p50 ${c.sequential.p50_ms} ms p99 ${c.sequential.p99_ms} ms; ` +
            `${CONNECTIONS} connections ${c.autocannon.requests_per_second} req/s`,
        );
      }
      await http.gateway.close();
      await http.direct.close();

      const [createdAt, id] = await keyAt((PAGE - 1) * PAGE_SIZE - 1);
      const select = `SELECT * FROM tasks t WHERE t.deleted_at IS NULL AND t.status = 'OPEN'`;
      const sql = {
        first_page_keyset: await explained(
          db,
          `${select} ORDER BY t.created_at DESC, t.id DESC LIMIT 21`,
          [],
        ),
        page_5000_keyset: await explained(
          db,
          `${select} AND (t.created_at, t.id) < ($1::timestamptz, $2::uuid) ORDER BY t.created_at DESC, t.id DESC LIMIT 21`,
          [createdAt, id],
        ),
        page_5000_offset_for_contrast: await explained(
          db,
          `${select} ORDER BY t.created_at DESC, t.id DESC OFFSET ${(PAGE - 1) * PAGE_SIZE} LIMIT 21`,
          [],
        ),
      };
      log(
        `SQL: first ${sql.first_page_keyset.execution_ms} ms, page ${PAGE} keyset ${sql.page_5000_keyset.execution_ms} ms, ` +
          `OFFSET ${sql.page_5000_offset_for_contrast.execution_ms} ms`,
      );
      await writeResult('assignment-list.json', {
        benchmark: `GET ${PATH}?status=OPEN at ${TASKS} tasks: first page and page ${PAGE} (page_size ${PAGE_SIZE})`,
        measured_at: new Date().toISOString(),
        machine: host,
        setup:
          'acl, assignment and the gateway from dist (LOG_LEVEL info to files), assignment on its own seeded database, ' +
          `NATS ${NATS_URL}; the client in this process; all on one machine`,
        seed: {
          tasks: TASKS,
          open_tasks: open,
          insert_seconds: seeded.insertSeconds,
          index_seconds: seeded.indexSeconds,
          indexes: seeded.indexes,
        },
        order:
          'created_at DESC, id DESC on tasks_status_created_idx (status, created_at DESC, id DESC) WHERE deleted_at IS NULL',
        page_5000:
          `cursor signed here for the OPEN row at rank ${(PAGE - 1) * PAGE_SIZE - 1} (checked equal to the app's own next ` +
          'cursor after a walk of 3 pages); its page checked against SQL',
        cases: cases.map((c) => ({
          via: c.via,
          position: c.position,
          url: c.url.replace(/cursor=[^&]+/, 'cursor=…'),
          sequential: c.sequential,
          autocannon: c.autocannon,
        })),
        sql,
      });
    });
  } finally {
    await stack.stop();
  }
}

main().catch((error) => {
  log(error?.stack ?? String(error));
  process.exitCode = 1;
});
