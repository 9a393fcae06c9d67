#!/usr/bin/env node
/**
 * inventory benchmark: the revenue summary (endpoint 10) for one year over LINES booking lines
 * (default 1,000,000), and endpoint 12 for one order of ORDER_LINES lines (default 500, each with
 * an asset), measured over HTTP against inventory booted from dist, with EXPLAIN (ANALYZE,
 * BUFFERS) of every statement each request runs.
 *
 *   npx nx run-many -t build && node bench/inventory.mjs
 *
 * Seed: LINES / 10 bookings of 10 lines each, created uniformly over 2024-01-01 .. 2025-12-31,
 * 80% CONFIRMED, 10% DRAFT, 10% CANCELLED; 3 platforms x 12 categories; rate card 0.00..10000.00,
 * booked 50..100% of it. As in bench/acl-growth.mjs, the rollup's line trigger is off for the bulk
 * insert and revenue_days is then filled with the migration's own backfill statement and checked
 * against a recount of the lines (a real order's lines come a request at a time through it).
 *
 * The summary reads revenue_days (one row per UTC day, platform and category of CONFIRMED lines,
 * kept by triggers): a year is about 365 x 3 x 12 rows whatever the number of lines. For scale,
 * the same figures computed straight from the lines (the query the rollup replaces) are timed too.
 *
 * Env: BENCH_DATABASE_URL (admin connection, default postgres://postgres@127.0.0.1:5432/postgres),
 * NATS_URL (default nats://127.0.0.1:4222), LINES, ORDER_LINES, SEQUENTIAL (requests per HTTP case,
 * default 300), RUNS (SQL runs per case, default 30), CONNECTIONS (default 10), DURATION (seconds,
 * default 5), KEEP_DB=1. Writes bench/results/inventory.json.
 */
import { randomBytes, randomUUID } from 'node:crypto';
import { createRequire } from 'node:module';
import {
  applySchema,
  executionMs,
  explain,
  httpClient,
  percentiles,
  runAutocannon,
  serveJwks,
  sqlRecorder,
  startApp,
} from './lib/app-server.mjs';
import { freePort } from './lib/processes.mjs';
import {
  benchDatabase,
  dist,
  log,
  machine,
  seconds,
  vacuumAnalyze,
  withClient,
  writeResult,
} from './lib/seed-users.mjs';

const require = createRequire(import.meta.url);
const { generateTestKeys, mintToken } = require(dist('libs/testing/src/tokens.js'));
const { REVENUE_DAYS_BACKFILL } = require(
  dist('apps/inventory/src/database/migrations/1764100000001-create-revenue-days.js'),
);
const { REVENUE_SQL } = require(dist('apps/inventory/src/revenue/revenue.sql.js'));
const { BookingsService } = require(dist('apps/inventory/src/bookings/bookings.service.js'));
const { Booking } = require(dist('apps/inventory/src/bookings/booking.entity.js'));
const { BookingLine } = require(dist('apps/inventory/src/bookings/booking-line.entity.js'));
const { LineAsset } = require(dist('apps/inventory/src/bookings/line-asset.entity.js'));

const LINES = Number(process.env.LINES ?? 1_000_000);
const ORDER_LINES = Number(process.env.ORDER_LINES ?? 500);
const SEQUENTIAL = Number(process.env.SEQUENTIAL ?? 300);
const RUNS = Number(process.env.RUNS ?? 30);
const CONNECTIONS = Number(process.env.CONNECTIONS ?? 10);
const DURATION = Number(process.env.DURATION ?? 5);
const NATS_URL = process.env.NATS_URL ?? 'nats://127.0.0.1:4222';
const LINES_PER_BOOKING = 10;
/** Interleaved rounds the sequential requests of every case are spread over. */
const ROUNDS = 10;
const database = benchDatabase('bench_inventory');

/** The figures of REVENUE_SQL computed from the lines themselves: what the rollup replaces. */
const FROM_LINES_SQL = `
  SELECT l.platform, l.category, sum(l.rate_card_amount) AS rc, sum(l.booked_amount) AS bk,
         GROUPING(date_trunc('month', b.created_at AT TIME ZONE 'UTC'), l.platform, l.category) AS level
    FROM bookings b JOIN booking_lines l ON l.order_id = b.id
   WHERE b.status = 'CONFIRMED'
     AND b.created_at >= $1::timestamp AT TIME ZONE 'UTC' AND b.created_at < ($2::date + 1)::timestamp AT TIME ZONE 'UTC'
     AND ($3::text IS NULL OR l.platform = $3::text)
   GROUP BY GROUPING SETS ((), (date_trunc('month', b.created_at AT TIME ZONE 'UTC')), (l.platform), (l.platform, l.category))`;

async function timeSql(db, sql, params, runs) {
  await db.query(sql, params);
  const samples = [];
  for (let i = 0; i < runs; i++) {
    const start = performance.now();
    await db.query(sql, params);
    samples.push(performance.now() - start);
  }
  return percentiles(samples, { count: 'runs' });
}

// ---------------------------------------------------------------- seed
async function seed(db) {
  let start = performance.now();
  await db.query('BEGIN');
  await db.query('ALTER TABLE booking_lines DISABLE TRIGGER booking_lines_revenue_days');
  await db.query(
    `INSERT INTO bookings (reference, client_name, status, currency, created_by, created_at, updated_at)
     SELECT 'BENCH-' || g, 'Client ' || (g % 500),
            CASE WHEN g % 10 < 8 THEN 'CONFIRMED' WHEN g % 10 = 8 THEN 'DRAFT' ELSE 'CANCELLED' END,
            'USD', '00000000-0000-4000-8000-000000000001', t, t
       FROM generate_series(1, $1::int) AS g,
            LATERAL (SELECT timestamptz '2024-01-01 00:00:00+00' + random() * interval '731 days' + g * interval '0') AS s (t)`,
    [LINES / LINES_PER_BOOKING],
  );
  await db.query(
    `INSERT INTO booking_lines (order_id, platform, category, channel, start_date, end_date, spots, rate_card_amount, booked_amount)
     SELECT order_id, platform, category, 'Channel 1', d, d + 6, spots, rc, round(rc * f, 2)
       FROM (
         SELECT b.id AS order_id, (ARRAY['TV', 'RADIO', 'DIGITAL'])[1 + i % 3] AS platform,
                'Category ' || lpad(floor(random() * 12)::int::text, 2, '0') AS category,
                (b.created_at AT TIME ZONE 'UTC')::date AS d, 1 + floor(random() * 20)::int AS spots,
                round((random() * 10000)::numeric, 2) AS rc, (0.5 + random() * 0.5)::numeric AS f
           FROM bookings b CROSS JOIN generate_series(1, $1::int) AS i
       ) s`,
    [LINES_PER_BOOKING],
  );
  await db.query('ALTER TABLE booking_lines ENABLE TRIGGER booking_lines_revenue_days');
  const seedSeconds = seconds(start);
  start = performance.now();
  await db.query('DELETE FROM revenue_days');
  await db.query(REVENUE_DAYS_BACKFILL);
  await db.query('COMMIT');
  return { seedSeconds, backfillSeconds: seconds(start) };
}

async function checkRollup(db) {
  const drift = (
    await db.query(`
      WITH recount AS (
        SELECT (b.created_at AT TIME ZONE 'UTC')::date AS day, l.platform, l.category,
               sum(l.rate_card_amount) AS rate_card, sum(l.booked_amount) AS booked, count(*)::int AS lines
          FROM booking_lines l JOIN bookings b ON b.id = l.order_id
         WHERE b.status = 'CONFIRMED' GROUP BY 1, 2, 3)
      SELECT count(*)::int AS n FROM revenue_days k FULL JOIN recount r USING (day, platform, category)
       WHERE k.rate_card IS DISTINCT FROM r.rate_card OR k.booked IS DISTINCT FROM r.booked OR k.lines IS DISTINCT FROM r.lines`)
  ).rows[0].n;
  if (drift !== 0) throw new Error(`revenue_days differs from a recount in ${drift} rows`);
  return (
    await db.query(`SELECT count(*)::int AS rows, pg_size_pretty(pg_total_relation_size('revenue_days')) AS size,
                           (SELECT count(*)::int FROM booking_lines) AS lines,
                           pg_size_pretty(pg_total_relation_size('booking_lines')) AS lines_size
                      FROM revenue_days`)
  ).rows[0];
}

// ---------------------------------------------------------------- inventory, booted from dist
/**
 * GETs over one keep-alive connection per case, timed from sending to the last byte, taken in
 * ROUNDS rounds interleaved across the cases so that this shared machine's drift falls on all alike.
 */
async function sequentialInterleaved(base, token, cases, n) {
  const clients = cases.map(() => httpClient(base, token));
  const samples = cases.map(() => []);
  const bodies = [];
  const get = async (i, path) => {
    const { body, ms } = await clients[i].get(path);
    bodies[i] = body;
    return ms;
  };
  try {
    // The first few warm the plan cache and the pool.
    for (const [i, [, path]] of cases.entries()) for (let k = 0; k < 5; k++) await get(i, path);
    for (let round = 0; round < ROUNDS; round++) {
      for (const [i, [, path]] of cases.entries()) {
        for (let k = 0; k < Math.ceil(n / ROUNDS); k++) samples[i].push(await get(i, path));
      }
    }
  } finally {
    await Promise.all(clients.map((c) => c.close()));
  }
  return cases.map((_, i) => ({ stats: percentiles(samples[i], { count: 'runs' }), body: bodies[i] }));
}

async function autocannonFigures(url, token) {
  const result = await runAutocannon({
    url,
    connections: CONNECTIONS,
    duration: DURATION,
    headers: { authorization: `Bearer ${token}` },
  });
  return {
    connections: CONNECTIONS,
    duration_s: DURATION,
    requests_per_s: result.requests.average,
    latency_p50_ms: result.latency.p50,
    latency_p97_5_ms: result.latency.p97_5,
    non_2xx: result.non2xx,
  };
}

/** Endpoint 12's statements, captured from inventory's compiled BookingsService. */
async function endpoint12Statements(url, orderId) {
  const sql = await sqlRecorder('inventory-bench-sql', url, [Booking, BookingLine, LineAsset]);
  try {
    const service = new BookingsService(sql.dataSource, null);
    const { result: view, statements } = await sql.record(() => service.get(orderId));
    return { statements, lines: view.lines.length };
  } finally {
    await sql.close();
  }
}

async function main() {
  await database.create();
  log(`database ${database.name}`);
  const keys = generateTestKeys();
  const jwks = await serveJwks(keys);
  let app;
  try {
    await applySchema('inventory', database.url);
    const report = await withClient(database.url, async (db) => {
      const host = await machine(db);
      const { seedSeconds, backfillSeconds } = await seed(db);
      log(`seeded ${LINES} lines in ${seedSeconds} s, backfilled revenue_days in ${backfillSeconds} s`);
      const vacuumSeconds = await vacuumAnalyze(db, ['bookings', 'booking_lines', 'revenue_days']);
      const rollup = await checkRollup(db);
      log(
        `revenue_days: ${rollup.rows} rows (${rollup.size}), exact against a recount of ${rollup.lines} lines`,
      );

      // ---- SQL alone
      const sqlCases = [];
      for (const [label, params] of [
        ['year 2025', ['2025-01-01', '2025-12-31', null]],
        ['year 2025, platform TV', ['2025-01-01', '2025-12-31', 'TV']],
        ['2024-01-01 .. 2025-12-31', ['2024-01-01', '2025-12-31', null]],
        ['one month (2025-06)', ['2025-06-01', '2025-06-30', null]],
        ['2025-01-15 .. 2025-12-20 (partial months at both ends)', ['2025-01-15', '2025-12-20', null]],
      ]) {
        const stats = await timeSql(db, REVENUE_SQL, params, RUNS);
        const plan = await explain(db, REVENUE_SQL, params);
        sqlCases.push({
          case: label,
          params,
          ...stats,
          explain_execution_ms: executionMs(plan),
          explain: plan,
        });
        log(
          `SQL ${label.padEnd(28)} p50 ${stats.p50_ms} ms  p95 ${stats.p95_ms} ms  (EXPLAIN ANALYZE ${executionMs(plan)} ms)`,
        );
      }
      const yearParams = ['2025-01-01', '2025-12-31', null];
      const fromLines = await timeSql(db, FROM_LINES_SQL, yearParams, 3);
      const fromLinesPlan = await explain(db, FROM_LINES_SQL, yearParams);
      log(
        `SQL year 2025 straight from the lines: p50 ${fromLines.p50_ms} ms (EXPLAIN ANALYZE ${executionMs(fromLinesPlan)} ms)`,
      );

      // ---- HTTP
      const port = await freePort();
      app = await startApp('inventory', 'inventory', {
        PORT: String(port),
        DATABASE_URL: database.url,
        NATS_URL,
        CURSOR_SECRET: randomBytes(32).toString('hex'),
        JWT_JWKS_URL: jwks.url,
        LOG_LEVEL: 'warn',
      });
      const token = mintToken(keys, {
        permissions: ['analytics:revenue', 'bookings:read', 'bookings:write'],
        expiresIn: 3600,
      });
      const created = await fetch(`${app.base}/inventory/api/v1/bookings`, {
        method: 'POST',
        headers: { authorization: `Bearer ${token}`, 'content-type': 'application/json' },
        body: JSON.stringify({
          reference: `BENCH-ORDER-${randomUUID()}`,
          client_name: 'Bench',
          status: 'CONFIRMED',
          lines: Array.from({ length: ORDER_LINES }, (_, i) => ({
            platform: ['TV', 'RADIO', 'DIGITAL'][i % 3],
            category: `Category ${String(i % 12).padStart(2, '0')}`,
            channel: 'Channel 1',
            start_date: '2025-06-01',
            end_date: '2025-06-30',
            spots: 5,
            rate_card_amount: '1000.01',
            booked_amount: '875.33',
          })),
        }),
      });
      const order = await created.json();
      if (created.status !== 201) throw new Error(`create: ${created.status} ${JSON.stringify(order)}`);
      await db.query(
        `INSERT INTO line_assets (line_id, name, document_id, notes)
         SELECT id, 'Spot ' || seq, gen_random_uuid(), 'bench' FROM booking_lines WHERE order_id = $1`,
        [order.id],
      );
      await db.query('ANALYZE line_assets');

      const cases = [
        [
          'revenue summary, year 2025',
          '/inventory/api/v1/analytics/revenue-summary?date_from=2025-01-01&date_to=2025-12-31',
        ],
        [
          'revenue summary, year 2025, platform TV',
          '/inventory/api/v1/analytics/revenue-summary?date_from=2025-01-01&date_to=2025-12-31&platform=TV',
        ],
        [
          'revenue summary, 2025-01-15 .. 2025-12-20 (partial months at both ends)',
          '/inventory/api/v1/analytics/revenue-summary?date_from=2025-01-15&date_to=2025-12-20',
        ],
        [`endpoint 12, ${ORDER_LINES} lines with an asset each`, `/inventory/api/v1/bookings/${order.id}`],
        ['health/live (floor)', '/inventory/health/live'],
      ];
      const measured = await sequentialInterleaved(app.base, token, cases, SEQUENTIAL);
      const http = [];
      for (const [i, [label, path]] of cases.entries()) {
        const { stats, body } = measured[i];
        const load = await autocannonFigures(`${app.base}${path}`, token);
        http.push({
          case: label,
          path,
          sequential: stats,
          response_bytes: JSON.stringify(body).length,
          autocannon: load,
        });
        log(
          `HTTP ${label.padEnd(44)} p50 ${stats.p50_ms} ms  p95 ${stats.p95_ms} ms  p99 ${stats.p99_ms} ms  ${Math.round(load.requests_per_s)} req/s`,
        );
      }

      const e12 = await endpoint12Statements(database.url, order.id);
      const e12Plans = [];
      for (const { query, parameters } of e12.statements) {
        const plan = await explain(db, query, parameters);
        e12Plans.push({
          statement: query.trim().split('\n')[0].slice(0, 120),
          explain_execution_ms: executionMs(plan),
          explain: plan,
        });
      }
      return {
        benchmark: 'inventory: revenue summary (endpoint 10) and get booking (endpoint 12)',
        measured_at: new Date().toISOString(),
        machine: host,
        lines: rollup.lines,
        bookings: LINES / LINES_PER_BOOKING,
        spread:
          'created_at uniform over 2024-01-01 .. 2025-12-31; 80% CONFIRMED, 10% DRAFT, 10% CANCELLED; 3 platforms x 12 categories',
        seed_seconds: seedSeconds,
        seed_note:
          'lines inserted with the booking_lines_revenue_days trigger disabled, then revenue_days backfilled and checked against a recount',
        backfill_seconds: backfillSeconds,
        vacuum_analyze_seconds: vacuumSeconds,
        booking_lines_size: rollup.lines_size,
        revenue_days_rows: rollup.rows,
        revenue_days_size: rollup.size,
        sql_runs_per_case: RUNS,
        sql: sqlCases,
        sql_year_from_lines_without_rollup: {
          ...fromLines,
          explain_execution_ms: executionMs(fromLinesPlan),
          explain: fromLinesPlan,
        },
        http_sequential_requests: SEQUENTIAL,
        http,
        endpoint_12: { lines: e12.lines, statements: e12.statements.length, plans: e12Plans },
      };
    });
    await writeResult('inventory.json', report);
  } finally {
    await app?.stop();
    await jwks.stop();
    await database.drop();
  }
}

main().catch((error) => {
  log(error?.stack ?? String(error));
  process.exitCode = 1;
});
