#!/usr/bin/env node
/**
 * Top clients (endpoint 8) at scale: DEALS deals (default 1,000,000) of CLIENTS clients (default
 * 10,000) spread uniformly over three calendar years up to today, about 60% WON, seeded straight
 * into a fresh database with commercial's real schema (its migrations from dist), then measured
 * over HTTP against commercial booted from dist: this year to date (the benchmark's case, p95 must
 * stay <= 50 ms), last year to date, a quarter and a month, with EXPLAIN (ANALYZE, BUFFERS) of the
 * statement commercial runs (TOP_CLIENTS_SQL from dist) and, for contrast, of the same ranking
 * summed straight from deals.
 *
 * The deals are inserted with the client_won_totals trigger off (one statement through a row
 * trigger rewrites the same rollup rows millions of times) and the rollup is then filled with the
 * migration's own backfill and checked against a GROUP BY of deals, as bench/acl-growth.mjs does.
 *
 *   npx nx run-many -t build && node bench/commercial-top-clients.mjs
 *
 * Env: BENCH_DATABASE_URL, NATS_URL (default nats://127.0.0.1:4222), DEALS, CLIENTS, REQUESTS
 * (sequential requests per case, default 200), KEEP_DB=1. Writes bench/results/commercial-top-clients.json.
 */
import { randomBytes } from 'node:crypto';
import { createRequire } from 'node:module';
import { applySchema, explain, httpClient, measure, serveJwks, startApp } from './lib/app-server.mjs';
import { benchDatabase, dist, log, machine, seconds, withClient, writeResult } from './lib/seed-users.mjs';

const require = createRequire(import.meta.url);
const { generateTestKeys, mintToken } = require(dist('libs/testing/src/tokens.js'));
const { freePort } = require(dist('libs/testing/src/ports.js'));
const { TOP_CLIENTS_SQL, topClientsParams } = require(
  dist('apps/commercial/src/analytics/top-clients.sql.js'),
);
const { resolvePeriod } = require(dist('apps/commercial/src/analytics/sales-period.js'));
const { CLIENT_WON_TOTALS_BACKFILL } = require(
  dist('apps/commercial/src/database/migrations/1764100000000-create-sales.js'),
);

const DEALS = Number(process.env.DEALS ?? 1_000_000);
const CLIENTS = Number(process.env.CLIENTS ?? 10_000);
const REQUESTS = Number(process.env.REQUESTS ?? 200);
const NATS_URL = process.env.NATS_URL ?? 'nats://127.0.0.1:4222';
const LIMIT = 10;
const database = benchDatabase('bench_commercial_top_clients');

/** The same ranking summed from deals, without the rollup: what the rollup saves. */
const FROM_DEALS_SQL = `
SELECT c.name AS client_name, c.category, count(*)::int AS deal_count, sum(d.contracted_revenue)::text AS revenue
  FROM deals d JOIN clients c ON c.id = d.client_id
 WHERE d.status = 'WON' AND d.contract_date BETWEEN $1::date AND $2::date
 GROUP BY c.id
 ORDER BY sum(d.contracted_revenue) DESC, c.name
 LIMIT $3`;

async function main() {
  const now = new Date();
  const year = now.getUTCFullYear();
  await database.create();
  log(`database ${database.name}`);
  let app;
  let jwks;
  try {
    await applySchema('commercial', database.url);
    await withClient(database.url, async (db) => {
      const host = await machine(db);
      let start = performance.now();
      await db.query(
        `INSERT INTO clients (name, category)
         SELECT 'Client ' || lpad(g::text, 5, '0'),
                (ARRAY['AUTOMOTIVE','BANKING','FMCG','TELCO','RETAIL','TRAVEL','PHARMA','MEDIA'])[1 + g % 8]
           FROM generate_series(1, $1::int) AS g`,
        [CLIENTS],
      );
      await db.query('BEGIN');
      await db.query('ALTER TABLE deals DISABLE TRIGGER deals_won_totals');
      await db.query(
        `INSERT INTO deals (client_id, contracted_revenue, contract_date, status)
         SELECT c.ids[1 + floor(random() * array_length(c.ids, 1))::int],
                round((100 + random() * 99900)::numeric, 2),
                $2::date + floor(random() * ($3::date - $2::date + 1))::int,
                CASE WHEN r < 0.6 THEN 'WON' WHEN r < 0.85 THEN 'LOST' ELSE 'PENDING' END
           FROM (SELECT array_agg(id) AS ids FROM clients) c,
                LATERAL (SELECT g, random() AS r FROM generate_series(1, $1::int) AS g) s`,
        [DEALS, `${year - 2}-01-01`, now.toISOString().slice(0, 10)],
      );
      await db.query('ALTER TABLE deals ENABLE TRIGGER deals_won_totals');
      const seedSeconds = seconds(start);
      start = performance.now();
      await db.query('DELETE FROM client_won_totals');
      await db.query(CLIENT_WON_TOTALS_BACKFILL);
      await db.query('COMMIT');
      const backfillSeconds = seconds(start);
      log(
        `seeded ${DEALS} deals of ${CLIENTS} clients in ${seedSeconds} s (rollup backfill ${backfillSeconds} s)`,
      );
      start = performance.now();
      for (const table of ['clients', 'deals', 'client_won_totals'])
        await db.query(`VACUUM ANALYZE ${table}`);
      const vacuumSeconds = seconds(start);
      const check = (
        await db.query(`
          SELECT NOT EXISTS (
                   SELECT client_id, period, deals, revenue FROM client_won_totals WHERE grain = 'y'
                   EXCEPT
                   SELECT client_id, date_trunc('year', contract_date)::date, count(*)::int, sum(contracted_revenue)
                     FROM deals WHERE status = 'WON' GROUP BY 1, 2) AS exact,
                 (SELECT count(*) FROM deals WHERE status = 'WON')::int AS won,
                 (SELECT sum(deals) FROM client_won_totals WHERE grain = 'y')::int AS rollup_won,
                 (SELECT count(*) FROM client_won_totals)::int AS rollup_rows,
                 pg_size_pretty(pg_total_relation_size('client_won_totals')) AS rollup_size,
                 pg_size_pretty(pg_total_relation_size('deals')) AS deals_size`)
      ).rows[0];
      if (!check.exact || check.won !== check.rollup_won)
        throw new Error(`rollup is off: ${JSON.stringify(check)}`);
      log(`rollup exact: ${JSON.stringify(check)}`);

      const keys = generateTestKeys();
      jwks = await serveJwks(keys);
      const port = await freePort();
      start = performance.now();
      app = await startApp('commercial', 'commercial', {
        PORT: String(port),
        DATABASE_URL: database.url,
        NATS_URL,
        CURSOR_SECRET: randomBytes(32).toString('hex'),
        JWT_JWKS_URL: jwks.url,
        LOG_LEVEL: 'warn',
      });
      log(`commercial ready on ${app.base} in ${seconds(start)} s`);
      const token = mintToken(keys, { permissions: ['analytics:sales'], expiresIn: 3600 });
      const http = httpClient(app.base, token);
      const month = `${year}-${String(now.getUTCMonth() + 1).padStart(2, '0')}`;
      const periods = {
        [`YTD-${year}`]: `YTD-${year}`,
        [`YTD-${year - 1}`]: `YTD-${year - 1}`,
        [`Q2-${year - 1}`]: `Q2-${year - 1}`,
        [month]: month,
      };
      const cases = Object.fromEntries(
        Object.entries(periods).map(([k, p]) => [
          k,
          `/commercial/api/v1/analytics/sales/top-clients?period=${p}&limit=${LIMIT}`,
        ]),
      );
      // The floor of an HTTP round trip to commercial on this machine, for scale.
      const { stats, last } = await measure(
        http,
        { ...cases, 'health/live (floor)': '/commercial/health/live' },
        REQUESTS,
      );
      await http.close();
      for (const [k, s] of Object.entries(stats))
        log(`${k}: p50 ${s.p50_ms} ms, p95 ${s.p95_ms} ms, p99 ${s.p99_ms} ms`);

      // The answer over HTTP equals the ranking summed straight from deals, row for row.
      const plans = {};
      const fromDeals = {};
      for (const [k, p] of Object.entries(periods)) {
        const period = resolvePeriod(p, now);
        if (!last[k]) continue;
        plans[k] = await explain(db, TOP_CLIENTS_SQL, topClientsParams(period.parts, LIMIT));
        const t0 = performance.now();
        const direct = (await db.query(FROM_DEALS_SQL, [period.from, period.to, LIMIT])).rows;
        fromDeals[k] = { ms: Number((performance.now() - t0).toFixed(2)) };
        const http = last[k].map((r) => [r.client_name, r.deal_count, r.total_contracted_revenue]);
        const sql = direct.map((r) => [r.client_name, r.deal_count, r.revenue]);
        if (JSON.stringify(http) !== JSON.stringify(sql))
          throw new Error(`${k}: HTTP ${JSON.stringify(http)} != deals ${JSON.stringify(sql)}`);
      }
      const ytd = resolvePeriod(`YTD-${year}`, now);
      const fromDealsPlan = await explain(db, FROM_DEALS_SQL, [ytd.from, ytd.to, LIMIT]);
      const p95 = stats[`YTD-${year}`].p95_ms;
      log(
        `YTD-${year} p95 ${p95} ms (target <= 50 ms); straight from deals one run took ${fromDeals[`YTD-${year}`].ms} ms`,
      );

      await writeResult('commercial-top-clients.json', {
        measured_at: new Date().toISOString(),
        machine: host,
        seed: {
          deals: DEALS,
          clients: CLIENTS,
          won_deals: check.won,
          range: [`${year - 2}-01-01`, now.toISOString().slice(0, 10)],
          seed_seconds: seedSeconds,
          rollup_backfill_seconds: backfillSeconds,
          vacuum_analyze_seconds: vacuumSeconds,
          rollup_rows: check.rollup_rows,
          rollup_size: check.rollup_size,
          deals_size: check.deals_size,
        },
        method: `${REQUESTS} sequential GETs per case over one keep-alive connection to commercial (from dist), interleaved in 10 rounds; limit=${LIMIT}`,
        target: { case: `YTD-${year}`, p95_ms_at_most: 50, met: p95 <= 50 },
        http: stats,
        straight_from_deals_single_run: fromDeals,
        explain: { top_clients_sql: plans, straight_from_deals_ytd: fromDealsPlan },
      });
    });
  } finally {
    await app?.stop();
    await jwks?.stop();
    await database.drop();
  }
}

main().catch((error) => {
  log(error.stack ?? String(error));
  process.exit(1);
});
