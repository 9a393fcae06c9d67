#!/usr/bin/env node
/**
 * Where `acl.users.get-many` (100 ids) spends the time between the broker's echo and the answer:
 * acl alone from dist (its own database, NATS of NATS_URL), 100 users created through its API as
 * request-path.mjs does, then requests one at a time, each case REQUESTS times, in interleaved
 * rounds:
 *
 * - `echo`: a bare responder in this process answering the same 40 KB reply (already a string):
 *   the broker's floor;
 * - `sql`: the statement acl runs (read from acl's own code), on a pool of this process;
 * - `sql_generic_plan`: the same on a connection with `plan_cache_mode = force_generic_plan`;
 * - `get_many_in_process`: acl's UserProfilesService.getMany (statement, rows, profiles) here;
 * - `responder_in_process`: a bare NATS responder in this process doing getMany and JSON.stringify:
 *   the same work without Nest, acl's pipes, interceptors or process;
 * - `acl_bare` and `acl_nest`: acl itself, asked by a bare client (plain JSON) and by Nest's client
 *   (request-path.mjs's figure);
 *
 * and the statement's planning and execution time from EXPLAIN ANALYZE, and JSON.stringify of the
 * reply alone. Also acl's CPU per request over the acl cases (/proc).
 *
 *   npm run build --silent && node bench/acl-get-many.mjs
 *
 * With PROFILE=1, acl runs under `node --cpu-prof` and, after the rounds, serves REQUESTS more from
 * the bare client in one window: acl's self time per request, by package and by function
 * (bench/lib/cpu-profile.mjs), goes into the result as `acl_profile`.
 *
 * Env: NATS_URL, REQUESTS (1000), ROUNDS (5), PROFILE. Writes bench/results/acl-get-many.json.
 */
import { execSync } from 'node:child_process';
import { mkdtempSync, readdirSync, readFileSync, rmSync } from 'node:fs';
import { createRequire } from 'node:module';
import { loadavg, tmpdir } from 'node:os';
import { join } from 'node:path';
import { connect } from '@nats-io/transport-node';
import { Logger } from '@nestjs/common';
import { ClientProxyFactory, Transport } from '@nestjs/microservices';
import { firstValueFrom } from 'rxjs';
import { logIn, percentiles } from './lib/app-server.mjs';
import { monotonicMicros, selfTime } from './lib/cpu-profile.mjs';
import { freePort, startProcess, waitReady } from './lib/processes.mjs';
import { aclEnv, assert, BENCH_ADMIN, benchDatabase, dist, log, writeResult } from './lib/seed-users.mjs';

const require = createRequire(import.meta.url);
const { generateTestKeys } = require(dist('libs/testing/src/tokens.js'));
const { databaseOptions } = require(dist('libs/platform/src/database/database.js'));
const { UserDirectoryService } = require(dist('apps/acl/src/users/user-directory.service.js'));
const { UserProfilesService } = require(dist('apps/acl/src/users/user-profiles.service.js'));
const { DataSource } = require('typeorm');
const pg = require('pg');

const NATS_URL = process.env.NATS_URL ?? 'nats://127.0.0.1:4222';
const REQUESTS = Number(process.env.REQUESTS ?? 1000);
const ROUNDS = Number(process.env.ROUNDS ?? 5);
const USERS = 100;
const TICKS_PER_S = Number(execSync('getconf CLK_TCK').toString().trim()) || 100;
const SUBJECT = 'acl.users.get-many';
const PROFILE = process.env.PROFILE === '1';

const round3 = (x) => Number(x.toFixed(3));
const median = (xs) => [...xs].sort((a, b) => a - b)[Math.floor((xs.length - 1) / 2)];
const cpuMs = (pid) => {
  const fields = readFileSync(`/proc/${pid}/stat`, 'utf8').split(') ')[1].split(' ');
  return ((Number(fields[11]) + Number(fields[12])) / TICKS_PER_S) * 1000;
};

async function seed(base, token) {
  const ids = [];
  for (let i = 0; i < USERS; i++) {
    const res = await fetch(`${base}/acl/api/v1/users`, {
      method: 'POST',
      headers: { 'content-type': 'application/json', authorization: `Bearer ${token}` },
      body: JSON.stringify({
        email: `path-${i}@example.com`,
        password: 'bench-password-1234',
        first_name: 'Path',
        last_name: String(i),
        roles: ['EDITOR'],
      }),
    });
    const body = await res.json();
    assert(res.status === 201, `user: ${res.status} ${JSON.stringify(body)}`);
    ids.push(body.data?.id ?? body.id);
  }
  return ids;
}

/** A pool of this process on acl's database, and the text of the statement getMany sends. */
async function inProcess(url, ids) {
  const dataSource = new DataSource(
    databaseOptions('bench-get-many', { url }, { entities: [], migrations: [] }),
  );
  await dataSource.initialize();
  const pool = dataSource.driver.master;
  const query = pool.query.bind(pool);
  let statement;
  pool.query = (config, ...rest) => {
    statement ??= typeof config === 'object' ? config : undefined;
    return query(config, ...rest);
  };
  const profiles = new UserProfilesService(dataSource, new UserDirectoryService(dataSource));
  const reply = await profiles.getMany(ids);
  assert(reply.length === USERS && statement, 'getMany in this process');
  pool.query = query;
  // The same statement on a connection that always runs prepared statements with their generic
  // plan (PostgreSQL otherwise plans this one for each list of ids).
  const generic = new pg.Client({ connectionString: url });
  await generic.connect();
  await generic.query('SET plan_cache_mode = force_generic_plan');
  return { dataSource, pool, profiles, statement, reply, generic };
}

async function main() {
  Logger.overrideLogger(false);
  const db = benchDatabase('bench_get_many');
  await db.create();
  const keys = generateTestKeys();
  const port = await freePort();
  const base = `http://127.0.0.1:${port}`;
  const profiles = PROFILE ? mkdtempSync(join(tmpdir(), 'bench-get-many-profile-')) : undefined;
  const nodeArgs = profiles ? ['--cpu-prof', `--cpu-prof-dir=${profiles}`] : [];
  const { child, logFile, stop } = startProcess(
    'get-many-acl',
    dist('apps/acl/src/main.js'),
    aclEnv({ port, databaseUrl: db.url, natsUrl: NATS_URL, keys }),
    { nodeArgs },
  );
  let here;
  let profileWindow;
  let report;
  const nc = await connect({ servers: NATS_URL });
  const nest = ClientProxyFactory.create({ transport: Transport.NATS, options: { servers: [NATS_URL] } });
  try {
    await waitReady(`${base}/acl/health/ready`, { child, logFile, timeoutMs: 120_000 });
    const ids = await seed(base, await logIn(base, BENCH_ADMIN));
    here = await inProcess(db.url, ids);
    const replyText = JSON.stringify(here.reply);
    const body = JSON.stringify({ ids });
    await nest.connect();

    const echo = nc.subscribe('bench.get-many.echo', { callback: (_e, msg) => msg.respond(replyText) });
    const responder = nc.subscribe('bench.get-many.responder', {
      callback: (_e, msg) => {
        here.profiles.getMany(msg.json().ids).then((profiles) => msg.respond(JSON.stringify(profiles)));
      },
    });
    const { name, text } = here.statement;
    const cases = {
      echo: () => nc.request('bench.get-many.echo', body, { timeout: 5000 }),
      sql: () => here.pool.query({ name, text, values: here.statement.values }),
      sql_generic_plan: () => here.generic.query({ name, text, values: here.statement.values }),
      get_many_in_process: () => here.profiles.getMany(ids),
      responder_in_process: () => nc.request('bench.get-many.responder', body, { timeout: 5000 }),
      acl_bare: () => nc.request(SUBJECT, body, { timeout: 5000 }),
      acl_nest: () => firstValueFrom(nest.send(SUBJECT, { data: { ids }, meta: {} })),
    };
    const first = await cases.acl_bare();
    assert(first.json().length === USERS, `acl answered ${first.string().slice(0, 200)}`);
    for (const request of Object.values(cases)) for (let i = 0; i < 50; i++) await request(); // warm-up

    const samples = Object.fromEntries(Object.keys(cases).map((k) => [k, []]));
    const aclCpu = { ms: 0, requests: 0 };
    const loads = [];
    for (let round = 0; round < ROUNDS; round++) {
      loads.push(Number(loadavg()[0].toFixed(2)));
      for (const [label, request] of Object.entries(cases)) {
        const cpuBefore = cpuMs(child.pid);
        for (let i = 0; i < Math.ceil(REQUESTS / ROUNDS); i++) {
          const start = performance.now();
          await request();
          samples[label].push(performance.now() - start);
        }
        if (label.startsWith('acl_')) {
          aclCpu.ms += cpuMs(child.pid) - cpuBefore;
          aclCpu.requests += Math.ceil(REQUESTS / ROUNDS);
        }
      }
    }
    echo.unsubscribe();
    responder.unsubscribe();
    if (profiles) {
      profileWindow = { from: monotonicMicros() };
      for (let i = 0; i < REQUESTS; i++) await cases.acl_bare();
      profileWindow.to = monotonicMicros();
    }

    const stringify = [];
    for (let i = 0; i < 2000; i++) {
      const start = performance.now();
      JSON.stringify(here.reply);
      stringify.push(performance.now() - start);
    }
    const parse = [];
    for (let i = 0; i < 2000; i++) {
      const start = performance.now();
      JSON.parse(replyText);
      parse.push(performance.now() - start);
    }
    const plans = [];
    for (let i = 0; i < 7; i++) {
      const { rows } = await here.pool.query(`EXPLAIN (ANALYZE, SUMMARY) ${text}`, here.statement.values);
      const plan = rows.map((r) => r['QUERY PLAN']).join('\n');
      plans.push({
        planning_ms: Number(/Planning Time: ([\d.]+) ms/.exec(plan)?.[1]),
        execution_ms: Number(/Execution Time: ([\d.]+) ms/.exec(plan)?.[1]),
      });
    }
    // Whether PostgreSQL planned the statement per run or kept a generic plan (PostgreSQL 14+), on
    // each connection that ran it: the pool's, and the one forced to the generic plan.
    const planCounts = async (client) =>
      (
        await client.query('SELECT generic_plans, custom_plans FROM pg_prepared_statements WHERE name = $1', [
          name,
        ])
      ).rows[0] ?? null;
    const prepared_plans = {
      pool: await planCounts(here.pool),
      forced_generic: await planCounts(here.generic),
    };

    const stats = Object.fromEntries(
      Object.entries(samples).map(([k, s]) => [k, percentiles(s, { quantiles: [50, 90, 99], mean: true })]),
    );
    report = {
      benchmark: 'acl.users.get-many (100 ids): where the time between the echo and the answer goes',
      measured_at: new Date().toISOString(),
      load_average_at_round_start: loads,
      load_average_at_end: loadavg().map((x) => Number(x.toFixed(2))),
      settings: { requests: REQUESTS, rounds: ROUNDS, users: USERS },
      reply_bytes: Buffer.byteLength(replyText),
      sequential: stats,
      acl_cpu_ms_per_request: round3(aclCpu.ms / aclCpu.requests),
      in_process: {
        stringify_reply_p50_ms: round3(median(stringify)),
        parse_reply_p50_ms: round3(median(parse)),
        statement_planning_ms_median: median(plans.map((p) => p.planning_ms)),
        statement_execution_ms_median: median(plans.map((p) => p.execution_ms)),
        prepared_plans,
      },
    };
    await writeResult('acl-get-many.json', report);
    for (const [k, s] of Object.entries(stats))
      log(`${k.padEnd(22)} p50 ${s.p50_ms} ms  p90 ${s.p90_ms} ms  mean ${s.mean_ms} ms`);
    log(
      `acl CPU per request ${round3(aclCpu.ms / aclCpu.requests)} ms; stringify ${round3(median(stringify))} ms; plan ${median(plans.map((p) => p.planning_ms))} ms, execution ${median(plans.map((p) => p.execution_ms))} ms`,
    );
  } finally {
    await nest.close();
    await nc.close();
    await here?.generic.end();
    await here?.dataSource.destroy();
    await stop();
    await db.drop();
  }
  if (profiles) {
    const file = readdirSync(profiles).find((name) => name.includes(`.${child.pid}.`));
    assert(file, `no profile of acl (pid ${child.pid}) in ${profiles}`);
    const { groups, functions } = selfTime(join(profiles, file), { ...profileWindow, top: 40 });
    rmSync(profiles, { recursive: true, force: true });
    const perRequest = (us) => Number((us / REQUESTS).toFixed(1));
    const acl_profile = {
      note: `acl's self time while it served ${REQUESTS} requests from the bare client, one at a time, µs per request`,
      busy_us_per_request: perRequest(groups.reduce((sum, g) => sum + g.us, 0)),
      groups: groups.map(({ group, us }) => ({ group, us: perRequest(us) })),
      functions: functions.map(({ function: name, us }) => ({ function: name, us: perRequest(us) })),
    };
    await writeResult('acl-get-many.json', { ...report, acl_profile });
    log(`acl busy ${acl_profile.busy_us_per_request} µs per request`);
    for (const { group, us } of acl_profile.groups.slice(0, 20))
      log(`${String(us).padStart(8)} µs  ${group}`);
    for (const { function: name, us } of acl_profile.functions) log(`${String(us).padStart(8)} µs  ${name}`);
  }
}

main().catch((error) => {
  log(error?.stack ?? String(error));
  process.exitCode = 1;
});
