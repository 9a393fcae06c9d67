#!/usr/bin/env node
/**
 * Claims per second (endpoint 4, docs/api/contract.md §4.4): CONNECTIONS concurrent clients (default 50),
 * each request claiming a different OPEN task for the caller itself, as one of USERS real acl
 * users (each claim asks acl over NATS for the claimant's status, permissions and groups, then
 * one statement: the conditional UPDATE, which carries the snapshot and group checks, and the
 * outbox row of its event). Through the gateway and, for the ratio, straight to assignment;
 * autocannon. Where the time goes: bench/assignment-claims-profile.mjs.
 *
 *   npx nx run-many -t build && NATS_URL=nats://127.0.0.1:4222 node bench/assignment-claims.mjs
 *
 * acl, assignment and the gateway run from dist on databases of their own (bench/lib/assignment-stack.mjs).
 * Env: NATS_URL, BENCH_DATABASE_URL, CONNECTIONS (50), USERS (50), DURATION (seconds per run, 10),
 * ROUNDS (2, interleaved gateway/direct), KEEP_DB=1, BEFORE_DIST (another build's dist directory:
 * its acl, assignment and gateway run as a second stack on databases of their own, and every round
 * measures both builds one after the other, so the two meet the same machine; its figures go to
 * `before_build` and `summary.gateway_over_before`; each stack then gets a nats-server of its own,
 * since two acl on one server would answer each other's requests from the wrong database).
 * Writes bench/results/assignment-claims.json.
 * Every run is checked: no error, no non-2xx, and the database holds as many newly CLAIMED tasks
 * as 200s were counted. Compare ratios: client, apps and PostgreSQL share this machine's 2 cores.
 */
import { createRequire } from 'node:module';
import { loadavg } from 'node:os';
import { startAssignmentStack } from './lib/assignment-stack.mjs';
import { claimRun, createClaimers } from './lib/claims.mjs';
import { assert, dist, log, machine, writeResult } from './lib/seed-users.mjs';

const NATS_URL = process.env.NATS_URL ?? 'nats://127.0.0.1:4222';
const CONNECTIONS = Number(process.env.CONNECTIONS ?? 50);
const USERS = Number(process.env.USERS ?? 50);
const DURATION = Number(process.env.DURATION ?? 10);
const ROUNDS = Number(process.env.ROUNDS ?? 2);
/** Seeded OPEN tasks: more than the runs can claim at this machine's speed. */
const TASKS = Number(process.env.TASKS ?? 80_000);
const SEQUENTIAL = Number(process.env.SEQUENTIAL ?? 200);
/** Another build's dist (e.g. the previous build's, built in a scratch worktree): measured beside this one. */
const BEFORE_DIST = process.env.BEFORE_DIST;
const require = createRequire(import.meta.url);
const { Client } = require('pg');

/** A connection to `url` (closed by the caller). */
async function connect(url) {
  const db = new Client({ connectionString: url });
  await db.connect();
  return db;
}

/** Seeds `TASKS` OPEN tasks in the build's assignment database; their ids. */
async function seedTasks(db) {
  const started = performance.now();
  const ids = (
    await db.query(
      `INSERT INTO tasks (workflow_node_code, node_preview_name, required_permissions_snapshot, required_permissions)
       SELECT 'bench-review', 'Bench task ' || g, '[{"code": "tasks:claim"}]', '{tasks:claim}'
         FROM generate_series(1, $1) g RETURNING id`,
      [TASKS],
    )
  ).rows.map((r) => r.id);
  await db.query('VACUUM ANALYZE tasks');
  log(`seeded ${ids.length} OPEN tasks in ${((performance.now() - started) / 1000).toFixed(1)} s`);
  return ids;
}

/** One claim at a time through the gateway: the cost of one claim without queueing. */
async function sequentialClaims(build) {
  const sequential = [];
  for (let i = 0; i < SEQUENTIAL; i++) {
    const n = build.cursor.next++;
    const t0 = performance.now();
    const res = await fetch(`${build.stack.urls.gateway}/assignment/api/v1/tasks/${build.ids[n]}/claim`, {
      method: 'POST',
      headers: {
        authorization: `Bearer ${build.tokens[n % build.tokens.length]}`,
        'content-type': 'application/json',
      },
      body: '{}',
    });
    await res.arrayBuffer();
    assert(res.status === 200, `sequential claim: ${res.status}`);
    sequential.push(performance.now() - t0);
  }
  sequential.sort((a, b) => a - b);
  return {
    claims: SEQUENTIAL,
    p50_ms: Number(sequential[Math.floor(SEQUENTIAL / 2)].toFixed(1)),
    p99_ms: Number(sequential[Math.floor(SEQUENTIAL * 0.99)].toFixed(1)),
  };
}

const median = (xs) => [...xs].sort((a, b) => a - b)[Math.floor((xs.length - 1) / 2)];

/** Medians by target of one build's runs, and gateway ÷ direct. */
function summaryOf(runs) {
  const summary = Object.fromEntries(
    ['gateway', 'direct'].map((via) => {
      const mine = runs.filter((r) => r.via === via);
      return [
        via,
        {
          claims_per_second_median: median(mine.map((r) => r.claims_per_second)),
          p50_ms_median: median(mine.map((r) => r.p50_ms)),
          p99_ms_median: median(mine.map((r) => r.p99_ms)),
        },
      ];
    }),
  );
  summary.gateway_over_direct = Number(
    (summary.gateway.claims_per_second_median / summary.direct.claims_per_second_median).toFixed(2),
  );
  return summary;
}

async function main() {
  const builds = [{ name: 'this' }];
  if (BEFORE_DIST) builds.push({ name: 'before', distDir: BEFORE_DIST });
  try {
    for (const build of builds) {
      if (BEFORE_DIST) build.nats = await require(dist('libs/testing/src/nats-server.js')).startNats();
      build.stack = await startAssignmentStack({
        prefix: build.name === 'this' ? 'bench_assignment_claims' : 'bench_assignment_claims_before',
        natsUrl: build.nats?.url ?? NATS_URL,
        env: { ESCALATION_CHECK_INTERVAL: '1h' },
        distDir: build.distDir,
      });
      build.tokens = await createClaimers(build.stack, USERS);
      log(`${build.name}: ${build.tokens.length} acl users created`);
      build.db = await connect(build.stack.databases.assignment.url);
      build.ids = await seedTasks(build.db);
      build.cursor = { next: 0 };
    }
    const host = await machine(builds[0].db);
    const claimed = async (build) =>
      (await build.db.query(`SELECT count(*)::int AS n FROM tasks WHERE status = 'CLAIMED'`)).rows[0].n;
    for (const build of builds) {
      build.sequential = await sequentialClaims(build);
      log(
        `${build.name}: sequential through the gateway: p50 ${build.sequential.p50_ms} ms, p99 ${build.sequential.p99_ms} ms`,
      );
      // Warm-up (JIT, pools, NATS connections), not reported.
      await claimRun(build.stack.urls.gateway, build.ids, build.tokens, build.cursor, {
        connections: CONNECTIONS,
        duration: 3,
      });
    }
    await new Promise((done) => setTimeout(done, 3000));
    const runs = [];
    for (let round = 0; round < ROUNDS; round++) {
      for (const build of builds) {
        const targets = { gateway: build.stack.urls.gateway, direct: build.stack.urls.assignment };
        for (const [via, base] of Object.entries(targets)) {
          const before = await claimed(build);
          const load = loadavg()[0];
          const result = await claimRun(base, build.ids, build.tokens, build.cursor, {
            connections: CONNECTIONS,
            duration: DURATION,
          });
          // Claims in flight when autocannon stopped still finish in the server: let them land.
          await new Promise((done) => setTimeout(done, 3000));
          const after = await claimed(build);
          assert(
            result.errors === 0 && result.non2xx === 0,
            `${build.name} ${via}: ${result.errors} errors, ${result.non2xx} non-2xx`,
          );
          assert(
            after - before >= result['2xx'] && after - before <= result['2xx'] + CONNECTIONS,
            `${build.name} ${via}: ${result['2xx']} 200s but ${after - before} tasks claimed`,
          );
          const run = {
            ...(BEFORE_DIST ? { build: build.name } : {}),
            via,
            round: round + 1,
            claims: result['2xx'],
            claims_per_second: Math.round(result['2xx'] / DURATION),
            p50_ms: result.latency.p50,
            p90_ms: result.latency.p90,
            p99_ms: result.latency.p99,
            max_ms: result.latency.max,
            load_average_1m_before: Number(load.toFixed(1)),
          };
          runs.push(run);
          log(
            `${build.name} ${via} round ${run.round}: ${run.claims_per_second} claims/s, p50 ${run.p50_ms} ms, p99 ${run.p99_ms} ms`,
          );
        }
      }
    }
    const [self, previous] = builds;
    const outbox = (
      await self.db.query(`SELECT count(*)::int AS n FROM outbox WHERE subject = 'assignment.task.claimed'`)
    ).rows[0].n;
    const summary = summaryOf(runs.filter((r) => (r.build ?? 'this') === 'this'));
    const beside = previous && {
      dist: BEFORE_DIST,
      summary: summaryOf(runs.filter((r) => r.build === 'before')),
      sequential_through_gateway: previous.sequential,
    };
    if (beside)
      summary.gateway_over_before = Number(
        (summary.gateway.claims_per_second_median / beside.summary.gateway.claims_per_second_median).toFixed(
          2,
        ),
      );
    await writeResult('assignment-claims.json', {
      benchmark:
        'endpoint 4: claims per second, each request a different OPEN task, claimed for the caller itself',
      measured_at: new Date().toISOString(),
      machine: host,
      setup:
        'acl, assignment and the gateway from dist (LOG_LEVEL info to files), each app on its own database, ' +
        `NATS ${BEFORE_DIST ? 'a nats-server of its own per build' : NATS_URL}; autocannon in this process; all on one machine` +
        (beside ? `; beside them the same three of ${BEFORE_DIST}, rounds interleaved` : ''),
      connections: CONNECTIONS,
      users: USERS,
      duration_seconds_per_run: DURATION,
      per_claim:
        'JWT check at the gateway and in assignment; acl.users.get-many over NATS (claimant status, permissions, groups); ' +
        'one statement: UPDATE ... WHERE status = OPEN and the snapshot and group checks, RETURNING, with the outbox INSERT in the same CTE. ' +
        'The outbox relay publishes the events to JetStream meanwhile (one UPDATE per batch marks them published).',
      checks: 'every run: 0 errors, 0 non-2xx, newly CLAIMED rows = 200s counted',
      claimed_events_in_outbox: outbox,
      sequential_through_gateway: self.sequential,
      summary,
      ...(beside ? { before_build: beside } : {}),
      runs,
    });
  } finally {
    for (const build of builds) {
      await build.db?.end();
      await build.stack?.stop();
      await build.nats?.stop();
    }
  }
}

main().catch((error) => {
  log(error?.stack ?? String(error));
  process.exitCode = 1;
});
