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
 * count of users.
 *
 *   npx nx run-many -t build && node bench/acl-growth.mjs
 *
 * Env: BENCH_DATABASE_URL (admin connection, default postgres://postgres@127.0.0.1:5432/postgres),
 * USERS, RUNS (timed runs per case, default 9), KEEP_DB=1 to keep the database afterwards.
 * Writes bench/results/acl-growth.json.
 */
import { createRequire } from 'node:module';
import { mkdirSync, writeFileSync } from 'node:fs';
import { cpus, totalmem } from 'node:os';
import { dirname, join } from 'node:path';
import { fileURLToPath } from 'node:url';

const require = createRequire(import.meta.url);
const root = join(dirname(fileURLToPath(import.meta.url)), '..');
const dist = (path) => join(root, 'dist', path);

const { Client } = require('pg');
const { hash } = require('@node-rs/argon2');
const { DataSource } = require('typeorm');
const { databaseOptions, runMigrations } = require(dist('libs/platform/src/database/database.js'));
const { migrations } = require(dist('apps/acl/src/database/migrations/index.js'));
const { USER_JOIN_DAYS_BACKFILL } = require(
  dist('apps/acl/src/database/migrations/1764000000003-create-user-join-days.js'),
);
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
const adminUrl = process.env.BENCH_DATABASE_URL ?? 'postgres://postgres@127.0.0.1:5432/postgres';
const dbName = `bench_acl_growth_${Date.now()}`;
const dbUrl = (() => {
  const url = new URL(adminUrl);
  url.pathname = `/${dbName}`;
  return url.toString();
})();

const log = (...args) => process.stderr.write(`${args.join(' ')}\n`);
const seconds = (start) => Number(((performance.now() - start) / 1000).toFixed(2));

async function withClient(url, work) {
  const client = new Client({ connectionString: url });
  await client.connect();
  try {
    return await work(client);
  } finally {
    await client.end();
  }
}

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
  await withClient(adminUrl, (c) => c.query(`CREATE DATABASE "${dbName}"`));
  log(`database ${dbName}`);
  try {
    // acl's own migrations (and the platform's outbox), exactly as acl applies them at boot.
    const dataSource = new DataSource(
      databaseOptions('acl-bench', { DATABASE_URL: dbUrl }, { entities: [], migrations }),
    );
    await dataSource.initialize();
    await runMigrations('acl', dataSource);
    await dataSource.destroy();

    const passwordHash = await hash('bench-password-1234');
    const result = await withClient(dbUrl, async (db) => {
      const version = (await db.query('SHOW server_version')).rows[0].server_version;
      // Joins spread uniformly from 2020-01-01 to now (every status, as the endpoint counts them all).
      // The rollup's trigger is off for the bulk insert and the rollup is backfilled after (see above).
      let start = performance.now();
      await db.query('BEGIN');
      await db.query('ALTER TABLE users DISABLE TRIGGER users_join_days');
      await db.query(
        `INSERT INTO users (email, password_hash, first_name, last_name, status, date_joined)
         SELECT 'bench-' || g || '@example.com', $1, 'First' || g, 'Last' || g,
                (ARRAY['ACTIVE','ACTIVE','ACTIVE','INVITED','DISABLED'])[1 + g % 5],
                timestamptz '2020-01-01 00:00:00+00' + random() * (now() - timestamptz '2020-01-01 00:00:00+00')
           FROM generate_series(1, $2::int) AS g`,
        [passwordHash, USERS],
      );
      await db.query('ALTER TABLE users ENABLE TRIGGER users_join_days');
      const seedSeconds = seconds(start);
      start = performance.now();
      await db.query('DELETE FROM user_join_days');
      await db.query(USER_JOIN_DAYS_BACKFILL);
      await db.query('COMMIT');
      const backfillSeconds = seconds(start);
      log(`seeded ${USERS} users in ${seedSeconds} s, backfilled user_join_days in ${backfillSeconds} s`);
      start = performance.now();
      await db.query('VACUUM ANALYZE users');
      await db.query('VACUUM ANALYZE user_join_days');
      const vacuumSeconds = seconds(start);
      const rollup = (
        await db.query(
          `SELECT (SELECT count(*) FROM user_join_days)::int AS days,
                  (SELECT coalesce(sum(users), 0) FROM user_join_days)::int AS users,
                  NOT EXISTS (
                    SELECT day, users FROM user_join_days
                    EXCEPT SELECT (date_joined AT TIME ZONE 'UTC')::date, count(*)::int FROM users GROUP BY 1
                  ) AS exact`,
        )
      ).rows[0];
      if (!rollup.exact || rollup.users !== USERS)
        throw new Error(`user_join_days is off: ${JSON.stringify(rollup)}`);
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
      return { version, seedSeconds, backfillSeconds, vacuumSeconds, size, rollup, cases: out };
    });

    const report = {
      benchmark: 'acl growth series (endpoint 13)',
      measured_at: new Date().toISOString(),
      machine: {
        cpus: cpus().length,
        cpu_model: cpus()[0]?.model,
        memory_gb: Math.round(totalmem() / 2 ** 30),
        node: process.version,
        postgres: result.version,
      },
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
    mkdirSync(join(root, 'bench', 'results'), { recursive: true });
    // Written as Prettier would, so that `npm run lint` passes on a fresh result.
    const file = join(root, 'bench', 'results', 'acl-growth.json');
    const prettier = require('prettier');
    const options = { ...(await prettier.resolveConfig(file)), filepath: file };
    writeFileSync(file, await prettier.format(JSON.stringify(report), options));
    log('wrote bench/results/acl-growth.json');
  } finally {
    if (process.env.KEEP_DB !== '1')
      await withClient(adminUrl, (c) => c.query(`DROP DATABASE IF EXISTS "${dbName}" WITH (FORCE)`));
  }
}

main().catch((error) => {
  log(error?.stack ?? String(error));
  process.exitCode = 1;
});
