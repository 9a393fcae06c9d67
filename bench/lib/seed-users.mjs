/**
 * What the benchmarks share: a fresh database with an app's real schema (its migrations from
 * dist, run as the app runs them), a million acl users inserted in one statement with one
 * precomputed password hash, and the result file written as Prettier would.
 *
 * The users_join_days rollup's row trigger is disabled for the bulk insert (through it, one
 * statement of a million inserts took 309 s instead of 24 s and left the rollup bloated with dead
 * row versions) and the rollup is then filled with the migration's own backfill statement and
 * checked against a count of users; see bench/acl-growth.mjs.
 */
import { randomBytes } from 'node:crypto';
import { createRequire } from 'node:module';
import { mkdirSync, writeFileSync } from 'node:fs';
import { cpus, totalmem } from 'node:os';
import { dirname, join } from 'node:path';
import { fileURLToPath } from 'node:url';

const require = createRequire(import.meta.url);
export const root = join(dirname(fileURLToPath(import.meta.url)), '..', '..');
export const dist = (path) => join(root, 'dist', path);

const { Client } = require('pg');
const { hash } = require('@node-rs/argon2');
const { DataSource } = require('typeorm');
const { databaseOptions, runMigrations } = require(dist('libs/platform/src/database/database.js'));
/** An app's migrations as its definition collects them from its features (`defineApp`), in order. */
export function appMigrations(app) {
  const name = `${app.replace(/-(\w)/g, (_, c) => c.toUpperCase())}App`;
  return require(dist(`apps/${app}/src/app.definition.js`))[name].database.migrations;
}
const { USER_JOIN_DAYS_BACKFILL } = require(
  dist('apps/acl/src/database/migrations/1764000000003-create-user-join-days.js'),
);

/** The admin the acl benchmarks boot with (ADMIN_EMAIL, ADMIN_PASSWORD) and log in as. */
export const BENCH_ADMIN = { email: 'bench-admin@example.com', password: 'bench-admin-password' };

/**
 * The environment of acl alone from dist in a benchmark: on `port`, its own database, its own
 * signing key (`keys` of generateTestKeys), verifying against its own JWKS, booting BENCH_ADMIN,
 * access log on as in production; `extra` is added last.
 */
export function aclEnv({ port, databaseUrl, natsUrl, keys }, extra = {}) {
  return {
    NATS_URL: natsUrl,
    PORT: String(port),
    DATABASE_URL: databaseUrl,
    CURSOR_SECRET: randomBytes(32).toString('hex'),
    JWT_PRIVATE_KEY: keys.privateKeyPem,
    JWT_JWKS_URL: `http://127.0.0.1:${port}/acl/.well-known/jwks.json`,
    ADMIN_EMAIL: BENCH_ADMIN.email,
    ADMIN_PASSWORD: BENCH_ADMIN.password,
    LOG_LEVEL: 'info',
    ...extra,
  };
}

export const log = (...args) => process.stderr.write(`${args.join(' ')}\n`);

export function assert(condition, message) {
  if (!condition) throw new Error(message);
}
export const seconds = (start) => Number(((performance.now() - start) / 1000).toFixed(2));

export async function withClient(url, work) {
  const client = new Client({ connectionString: url });
  await client.connect();
  try {
    return await work(client);
  } finally {
    await client.end();
  }
}

/**
 * A database named `<prefix>_<now>` on the server of BENCH_DATABASE_URL (admin connection,
 * default postgres://postgres@127.0.0.1:5432/postgres). `drop()` keeps it when KEEP_DB=1.
 */
export function benchDatabase(prefix) {
  const adminUrl = process.env.BENCH_DATABASE_URL ?? 'postgres://postgres@127.0.0.1:5432/postgres';
  const name = `${prefix}_${Date.now()}`;
  const url = new URL(adminUrl);
  url.pathname = `/${name}`;
  return {
    name,
    url: url.toString(),
    create: () => withClient(adminUrl, (c) => c.query(`CREATE DATABASE "${name}"`)),
    drop: async () => {
      if (process.env.KEEP_DB === '1') return log(`kept database ${name} (KEEP_DB=1)`);
      await withClient(adminUrl, (c) => c.query(`DROP DATABASE IF EXISTS "${name}" WITH (FORCE)`));
    },
  };
}

/** An app's own migrations (and the platform's outbox), exactly as it applies them at boot. */
export async function applySchema(app, url) {
  const dataSource = new DataSource(
    databaseOptions(`${app}-bench`, { url }, { entities: [], migrations: appMigrations(app) }),
  );
  await dataSource.initialize();
  try {
    await runMigrations(app, dataSource);
  } finally {
    await dataSource.destroy();
  }
}

/** The one password hash every seeded user shares (hashing a million would take hours). */
export const benchPasswordHash = () => hash('bench-password-1234');

/**
 * Inserts `users` users `bench-<n>@example.com` (n = 1..users) in one transaction: statuses
 * ACTIVE, ACTIVE, ACTIVE, INVITED, DISABLED by n % 5, joins spread uniformly from 2020-01-01 to
 * now. The rollup trigger is off for the insert; the rollup is backfilled before the commit.
 */
export async function seedUsers(db, { users, passwordHash }) {
  let start = performance.now();
  await db.query('BEGIN');
  await db.query('ALTER TABLE users DISABLE TRIGGER users_join_days');
  await db.query(
    `INSERT INTO users (email, password_hash, first_name, last_name, status, date_joined)
     SELECT 'bench-' || g || '@example.com', $1, 'First' || g, 'Last' || g,
            (ARRAY['ACTIVE','ACTIVE','ACTIVE','INVITED','DISABLED'])[1 + g % 5],
            timestamptz '2020-01-01 00:00:00+00' + random() * (now() - timestamptz '2020-01-01 00:00:00+00')
       FROM generate_series(1, $2::int) AS g`,
    [passwordHash, users],
  );
  await db.query('ALTER TABLE users ENABLE TRIGGER users_join_days');
  const seedSeconds = seconds(start);
  start = performance.now();
  await db.query('DELETE FROM user_join_days');
  await db.query(USER_JOIN_DAYS_BACKFILL);
  await db.query('COMMIT');
  return { seedSeconds, backfillSeconds: seconds(start) };
}

/** VACUUM ANALYZE of each table, as autovacuum would leave them after a quiet while; seconds taken. */
export async function vacuumAnalyze(db, tables) {
  const start = performance.now();
  for (const table of tables) await db.query(`VACUUM ANALYZE ${table}`);
  return seconds(start);
}

/** The rollup's day count and total, and whether it matches a count of users exactly (throws if not). */
export async function checkRollup(db, users) {
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
  if (!rollup.exact || rollup.users !== users)
    throw new Error(`user_join_days is off: ${JSON.stringify(rollup)}`);
  return rollup;
}

/** Cores, memory, node and the PostgreSQL server's version. */
export async function machine(db) {
  return {
    cpus: cpus().length,
    cpu_model: cpus()[0]?.model,
    memory_gb: Math.round(totalmem() / 2 ** 30),
    node: process.version,
    postgres: (await db.query('SHOW server_version')).rows[0].server_version,
  };
}

/**
 * Writes bench/results/<name> as Prettier would, so that `npm run lint` passes on a fresh result;
 * BENCH_RESULTS_DIR writes it elsewhere (a smoke run at a tiny size keeps the recorded figures).
 */
export async function writeResult(name, report) {
  const dir = process.env.BENCH_RESULTS_DIR ?? join(root, 'bench', 'results');
  mkdirSync(dir, { recursive: true });
  const file = join(dir, name);
  const prettier = require('prettier');
  const options = { ...(await prettier.resolveConfig(file)), filepath: file };
  // A quick run (BENCH_QUICK=1, small sizes) says so in its figures.
  const marked = process.env.BENCH_QUICK === '1' ? { bench_quick: true, ...report } : report;
  writeFileSync(file, await prettier.format(JSON.stringify(marked), options));
  log(`wrote ${file}`);
}
