#!/usr/bin/env node
/**
 * Commission attainment (endpoint 9) for BMS business managers (default 500) over HTTP, including
 * the NATS round trip to acl for their profiles: acl and payment booted from dist on fresh
 * databases with their real schemas, the BMs (reporting to one CM) inserted into acl's users,
 * three categories with plans, a target per BM and category for every month of a year, and
 * COLLECTIONS collections (default 200,000) spread over that year. Measured: the month for
 * `commissions:read-all` (one acl.users.get-many of all BMs) and for the CM with
 * `commissions:read` (one acl.users.reports), with EXPLAIN (ANALYZE, BUFFERS) of ATTAINMENT_SQL.
 *
 *   npx nx run-many -t build && node bench/payment-attainment.mjs
 *
 * Env: BENCH_DATABASE_URL, NATS_URL (default nats://127.0.0.1:4222), BMS, COLLECTIONS, REQUESTS
 * (sequential requests per case, default 100), KEEP_DB=1. Writes bench/results/payment-attainment.json.
 */
import { randomBytes, randomUUID } from 'node:crypto';
import { connect } from '@nats-io/transport-node';
import { createRequire } from 'node:module';
import { applySchema, explain, httpClient, measure, percentiles, startApp } from './lib/app-server.mjs';
import { benchDatabase, dist, log, machine, seconds, withClient, writeResult } from './lib/seed-users.mjs';

const require = createRequire(import.meta.url);
const { generateTestKeys, mintToken } = require(dist('libs/testing/src/tokens.js'));
const { freePort } = require(dist('libs/testing/src/ports.js'));
const { ATTAINMENT_SQL, attainmentParams } = require(dist('apps/payment/src/attainment/attainment.sql.js'));

const BMS = Number(process.env.BMS ?? 500);
const COLLECTIONS = Number(process.env.COLLECTIONS ?? 200_000);
const REQUESTS = Number(process.env.REQUESTS ?? 100);
const NATS_URL = process.env.NATS_URL ?? 'nats://127.0.0.1:4222';
const YEAR = 2030;
const MONTH = 6;
const CATEGORIES = ['DIGITAL', 'RADIO', 'TV'];
const aclDb = benchDatabase('bench_payment_acl');
const paymentDb = benchDatabase('bench_payment');

async function main() {
  await aclDb.create();
  await paymentDb.create();
  log(`databases ${aclDb.name}, ${paymentDb.name}`);
  let acl;
  let payment;
  try {
    await applySchema('acl', aclDb.url);
    await applySchema('payment', paymentDb.url);
    const managerId = await withClient(aclDb.url, async (db) => {
      const manager = (
        await db.query(
          `INSERT INTO users (email, first_name, last_name) VALUES ('cm@bench.example', 'Team', 'Manager') RETURNING id`,
        )
      ).rows[0].id;
      await db.query(
        `INSERT INTO users (email, first_name, last_name, employee_number, manager_id)
         SELECT 'bm-' || g || '@bench.example', 'Bm', lpad(g::text, 4, '0'), 'BM-' || g, $2
           FROM generate_series(1, $1::int) AS g`,
        [BMS, manager],
      );
      await db.query('VACUUM ANALYZE users');
      return manager;
    });
    const bmIds = await withClient(aclDb.url, async (db) =>
      (await db.query(`SELECT id FROM users WHERE manager_id = $1`, [managerId])).rows.map((r) => r.id),
    );
    const seeded = await withClient(paymentDb.url, async (db) => {
      const start = performance.now();
      for (const category of CATEGORIES) {
        const plan = (
          await db.query(`INSERT INTO commission_plans (category) VALUES ($1) RETURNING id`, [category])
        ).rows[0].id;
        await db.query(
          `INSERT INTO commission_tiers (plan_id, min_achievement_pct, rate_pct) VALUES ($1, 50, 1), ($1, 80, 2.5), ($1, 100, 4)`,
          [plan],
        );
      }
      await db.query(
        `INSERT INTO commission_targets (bm_id, category, month, year, target_amount)
         SELECT bm, c, m, $2, round((5000 + random() * 20000)::numeric, 2)
           FROM unnest($1::uuid[]) AS bm, unnest($3::text[]) AS c, generate_series(1, 12) AS m`,
        [bmIds, YEAR, CATEGORIES],
      );
      await db.query(
        `INSERT INTO collections (bm_id, category, amount, collected_at)
         SELECT ($1::uuid[])[1 + floor(random() * $4)::int], ($3::text[])[1 + floor(random() * 3)::int],
                round((10 + random() * 1000)::numeric, 2),
                make_timestamptz($2, 1, 1, 0, 0, 0, 'UTC') + random() * interval '365 days'
           FROM generate_series(1, $5::int)`,
        [bmIds, YEAR, CATEGORIES, bmIds.length, COLLECTIONS],
      );
      for (const t of ['commission_plans', 'commission_tiers', 'commission_targets', 'collections'])
        await db.query(`VACUUM ANALYZE ${t}`);
      return { seconds: seconds(start), host: await machine(db) };
    });
    log(`seeded payment in ${seeded.seconds} s`);

    const keys = generateTestKeys();
    const aclPort = await freePort();
    const jwksUrl = `http://127.0.0.1:${aclPort}/acl/.well-known/jwks.json`;
    const common = {
      NATS_URL,
      CURSOR_SECRET: randomBytes(32).toString('hex'),
      JWT_JWKS_URL: jwksUrl,
      LOG_LEVEL: 'warn',
    };
    acl = await startApp('acl', 'acl', {
      ...common,
      PORT: String(aclPort),
      DATABASE_URL: aclDb.url,
      JWT_PRIVATE_KEY: keys.privateKeyPem,
      ADMIN_EMAIL: 'admin@bench.example',
      ADMIN_PASSWORD: 'bench-admin-password',
    });
    const paymentPort = await freePort();
    payment = await startApp('payment', 'payment', {
      ...common,
      PORT: String(paymentPort),
      DATABASE_URL: paymentDb.url,
    });
    log(`acl on ${acl.base}, payment on ${payment.base}`);

    const readAll = httpClient(
      payment.base,
      mintToken(keys, { permissions: ['commissions:read-all'], expiresIn: 3600 }),
    );
    const scoped = httpClient(
      payment.base,
      mintToken(keys, { permissions: ['commissions:read'], sub: managerId, expiresIn: 3600 }),
    );
    const path = `/payment/api/v1/commissions/cm-team-attainment?month=${MONTH}&year=${YEAR}`;
    const all = await measure(
      readAll,
      { 'read-all (get-many)': path, 'health/live (floor)': '/payment/health/live' },
      REQUESTS,
    );
    const mine = await measure(scoped, { 'read, scoped (reports)': path }, REQUESTS);
    await readAll.close();
    await scoped.close();
    const rows = all.last['read-all (get-many)'];
    if (rows.length !== BMS * CATEGORIES.length || rows.some((r) => !r.bm_name))
      throw new Error(`expected ${BMS * CATEGORIES.length} filled rows, got ${rows.length}`);
    if (mine.last['read, scoped (reports)'].length !== rows.length) throw new Error('scoped rows differ');
    const stats = { ...all.stats, ...mine.stats };
    for (const [k, s] of Object.entries(stats))
      log(`${k}: p50 ${s.p50_ms} ms, p95 ${s.p95_ms} ms, p99 ${s.p99_ms} ms`);

    // The NATS share: acl.users.get-many of the 500 ids alone, as payment's Nest client sends it.
    const nc = await connect({ servers: NATS_URL });
    const natsSamples = [];
    for (let i = 0; i < REQUESTS; i++) {
      const id = randomUUID();
      const packet = { id, pattern: 'acl.users.get-many', data: { data: { ids: bmIds }, meta: {} } };
      const started = performance.now();
      const reply = (
        await nc.request('acl.users.get-many', JSON.stringify(packet), { timeout: 10_000 })
      ).json();
      natsSamples.push(performance.now() - started);
      if (reply.response?.length !== BMS) throw new Error('get-many answered the wrong profiles');
    }
    await nc.close();
    stats['acl.users.get-many of 500 ids (NATS alone)'] = percentiles(natsSamples);
    log(`get-many alone: p50 ${stats['acl.users.get-many of 500 ids (NATS alone)'].p50_ms} ms`);

    const plans = await withClient(paymentDb.url, async (db) => ({
      read_all: await explain(db, ATTAINMENT_SQL, attainmentParams(YEAR, MONTH, null)),
      scoped: await explain(db, ATTAINMENT_SQL, attainmentParams(YEAR, MONTH, bmIds)),
    }));
    await writeResult('payment-attainment.json', {
      measured_at: new Date().toISOString(),
      machine: seeded.host,
      seed: {
        bms: BMS,
        categories: CATEGORIES.length,
        targets: BMS * CATEGORIES.length * 12,
        collections: COLLECTIONS,
        month: `${YEAR}-${MONTH}`,
      },
      method: `${REQUESTS} sequential GETs per case over one keep-alive connection to payment (from dist), acl answering over NATS at ${NATS_URL}`,
      rows_per_answer: rows.length,
      http: stats,
      explain: plans,
    });
  } finally {
    await payment?.stop();
    await acl?.stop();
    await aclDb.drop();
    await paymentDb.drop();
  }
}

main().catch((error) => {
  log(error.stack ?? String(error));
  process.exit(1);
});
