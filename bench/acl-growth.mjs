#!/usr/bin/env node
/**
 * acl growth benchmark (endpoint 13): seeds USERS (default 1,000,000) users straight into a fresh
 * database that has acl's real schema (its migrations from dist, run as acl runs them), then
 * times the growth query acl runs (the same SQL text, imported from dist) for month, week and
 * day buckets over the default range and over the last full calendar year, with EXPLAIN ANALYZE.
 *
 * The query reads user_join_days, the per-day rollup a row trigger on users keeps. Seeding a
 * million users in one statement through that trigger took 309 s instead of 24 s here (each upsert
 * walks the versions of its day's row that the same transaction left behind) and left the rollup
 * bloated with a million dead row versions until vacuumed (queries of 28-32 ms instead of 1-5 ms).
 * Real joins come one per transaction and see neither. So the seed runs with the trigger disabled,
 * then fills the rollup with the migration's own backfill statement, and checks that it matches a
 * count of users (bench/lib/seed-users.mjs, shared with bench/acl-users-list.mjs).
 *
 *   npx nx run-many -t build && node bench/acl-growth.mjs
 *
 * Env: BENCH_DATABASE_URL (admin connection, default postgres://postgres@127.0.0.1:5432/postgres),
 * USERS, RUNS (timed runs per case, default 9), KEEP_DB=1 to keep the database afterwards.
 * Writes bench/results/acl-growth.json.
 */
import { createRequire } from 'node:module';
import {
  applySchema,
  benchDatabase,
  benchPasswordHash,
  checkRollup,
  dist,
  log,
  machine,
  seedUsers,
  vacuumAnalyze,
  withClient,
  writeResult,
} from './lib/seed-users.mjs';

const require = createRequire(import.meta.url);
const { GROWTH_SQL, growthParams } = require(dist('apps/acl/src/analytics/growth.sql.js'));
const { defaultGrowthRange, bucketCount } = require(dist('apps/acl/src/analytics/growth-range.js'));

/**
 * The medians of the previous query, which counted users itself (an index-only scan of
 * users_date_joined_idx for everyone before the first bucket, ~130 ms, plus a range scan of the
 * buckets, ~40 ms): commit eee2938, same machine, same seed.
 */
const BEFORE = {
  measured_at: '2026-11-25T22:40:31.618Z',
  query: 'count(*) over users (users_date_joined_idx), before user_join_days',
  median_ms: {
    'month over default range': 191.11,
    'week over default range': 177.42,
    'day over default range': 161.9,
    'month over year 2025': 180.98,
    'week over year 2025': 191.5,
    'day over year 2025': 142.37,
  },
};

const USERS = Number(process.env.USERS ?? 1_000_000);
const RUNS = Number(process.env.RUNS ?? 9);
const database = benchDatabase('bench_acl_growth');

function stats(samples) {
  const sorted = [...samples].sort((a, b) => a - b);
  const at = (q) => sorted[Math.min(sorted.length - 1, Math.floor(q * sorted.length))];
  const round = (x) => Number(x.toFixed(2));
  return {
    runs_ms: samples.map(round),
    min_ms: round(sorted[0]),
    median_ms: round(at(0.5)),
    max_ms: round(sorted[sorted.length - 1]),
  };
}

async function main() {
  await database.create();
  log(`database ${database.name}`);
  try {
    await applySchema('acl', database.url);
    const passwordHash = await benchPasswordHash();
    const result = await withClient(database.url, async (db) => {
      const host = await machine(db);
      // Joins spread uniformly from 2020-01-01 to now (every status, as the endpoint counts them all).
      // The rollup's trigger is off for the bulk insert and the rollup is backfilled after (see above).
      const { seedSeconds, backfillSeconds } = await seedUsers(db, { users: USERS, passwordHash });
      log(`seeded ${USERS} users in ${seedSeconds} s, backfilled user_join_days in ${backfillSeconds} s`);
      const vacuumSeconds = await vacuumAnalyze(db, ['users', 'user_join_days']);
      const rollup = await checkRollup(db, USERS);
      const size = (
        await db.query(
          `SELECT pg_size_pretty(pg_total_relation_size('users')) AS total, pg_size_pretty(pg_relation_size('users_date_joined_idx')) AS idx,
                  pg_size_pretty(pg_total_relation_size('user_join_days')) AS rollup`,
        )
      ).rows[0];

      const now = new Date();
      const defaults = defaultGrowthRange(now);
      const lastYear = now.getUTCFullYear() - 1;
      const year = { date_from: `${lastYear}-01-01`, date_to: `${lastYear}-12-31` };
      const cases = [];
      for (const [label, range] of [
        ['default range', defaults],
        [`year ${lastYear}`, year],
      ]) {
        for (const interval of ['month', 'week', 'day']) cases.push({ label, interval, ...range });
      }

      const out = [];
      for (const item of cases) {
        const params = growthParams(item.date_from, item.date_to, item.interval);
        await db.query(GROWTH_SQL, params); // warm the cache and the plan
        const samples = [];
        let rows = [];
        for (let i = 0; i < RUNS; i++) {
          const t = performance.now();
          rows = (await db.query(GROWTH_SQL, params)).rows;
          samples.push(performance.now() - t);
        }
        const explain = (await db.query(`EXPLAIN (ANALYZE, BUFFERS) ${GROWTH_SQL}`, params)).rows.map(
          (r) => r['QUERY PLAN'],
        );
        const executionMs = Number(/Execution Time: ([\d.]+) ms/.exec(explain.join('\n'))?.[1]);
        const entry = {
          case: `${item.interval} over ${item.label}`,
          interval: item.interval,
          date_from: item.date_from,
          date_to: item.date_to,
          points: bucketCount(item.date_from, item.date_to, item.interval),
          total_new_users: rows.reduce((s, r) => s + r.new_users, 0),
          last_cumulative_users: rows[rows.length - 1]?.cumulative_users,
          ...stats(samples),
          before_median_ms: BEFORE.median_ms[`${item.interval} over ${item.label}`],
          explain_execution_ms: executionMs,
          explain,
        };
        log(
          `${entry.case.padEnd(28)} points ${String(entry.points).padStart(3)}  median ${entry.median_ms} ms  min ${entry.min_ms} ms  (EXPLAIN ANALYZE ${executionMs} ms; before: median ${entry.before_median_ms} ms)`,
        );
        out.push(entry);
      }
      return { host, seedSeconds, backfillSeconds, vacuumSeconds, size, rollup, cases: out };
    });

    const report = {
      benchmark: 'acl growth series (endpoint 13)',
      measured_at: new Date().toISOString(),
      machine: result.host,
      users: USERS,
      date_joined_spread: '2020-01-01 .. now, uniform, every status',
      seed_seconds: result.seedSeconds,
      seed_note: 'users inserted with the users_join_days trigger disabled, then user_join_days backfilled',
      backfill_seconds: result.backfillSeconds,
      vacuum_analyze_seconds: result.vacuumSeconds,
      users_table_size: result.size.total,
      date_joined_index_size: result.size.idx,
      user_join_days_rows: result.rollup.days,
      user_join_days_size: result.size.rollup,
      runs_per_case: RUNS,
      before: BEFORE,
      cases: result.cases,
    };
    await writeResult('acl-growth.json', report);
  } finally {
    await database.drop();
  }
}

main().catch((error) => {
  log(error?.stack ?? String(error));
  process.exitCode = 1;
});
