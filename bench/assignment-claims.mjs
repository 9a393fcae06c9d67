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
 * ROUNDS (2, interleaved gateway/direct), KEEP_DB=1. Writes bench/results/assignment-claims.json.
 * Every run is checked: no error, no non-2xx, and the database holds as many newly CLAIMED tasks
 * as 200s were counted. Compare ratios: client, apps and PostgreSQL share this machine's 2 cores.
 */
import { loadavg } from 'node:os';
import { startAssignmentStack } from './lib/assignment-stack.mjs';
import { claimRun, createClaimers } from './lib/claims.mjs';
import { assert, log, machine, withClient, writeResult } from './lib/seed-users.mjs';

const NATS_URL = process.env.NATS_URL ?? 'nats://127.0.0.1:4222';
const CONNECTIONS = Number(process.env.CONNECTIONS ?? 50);
const USERS = Number(process.env.USERS ?? 50);
const DURATION = Number(process.env.DURATION ?? 10);
const ROUNDS = Number(process.env.ROUNDS ?? 2);
/** Seeded OPEN tasks: more than the runs can claim at this machine's speed. */
const TASKS = Number(process.env.TASKS ?? 80_000);
const SEQUENTIAL = Number(process.env.SEQUENTIAL ?? 200);

async function main() {
  const stack = await startAssignmentStack({
    prefix: 'bench_assignment_claims',
    natsUrl: NATS_URL,
    env: { ESCALATION_CHECK_INTERVAL: '1h' },
  });
  try {
    const tokens = await createClaimers(stack, USERS);
    log(`${tokens.length} acl users created`);
    await withClient(stack.databases.assignment.url, async (db) => {
      const host = await machine(db);
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
      const claimed = async () =>
        (await db.query(`SELECT count(*)::int AS n FROM tasks WHERE status = 'CLAIMED'`)).rows[0].n;

      const cursor = { next: 0 };
      // One claim at a time through the gateway: the cost of one claim without queueing.
      const sequential = [];
      for (let i = 0; i < SEQUENTIAL; i++) {
        const n = cursor.next++;
        const t0 = performance.now();
        const res = await fetch(`${stack.urls.gateway}/assignment/api/v1/tasks/${ids[n]}/claim`, {
          method: 'POST',
          headers: {
            authorization: `Bearer ${tokens[n % tokens.length]}`,
            'content-type': 'application/json',
          },
          body: '{}',
        });
        await res.arrayBuffer();
        assert(res.status === 200, `sequential claim: ${res.status}`);
        sequential.push(performance.now() - t0);
      }
      sequential.sort((a, b) => a - b);
      const sequentialMs = {
        claims: SEQUENTIAL,
        p50_ms: Number(sequential[Math.floor(SEQUENTIAL / 2)].toFixed(1)),
        p99_ms: Number(sequential[Math.floor(SEQUENTIAL * 0.99)].toFixed(1)),
      };
      log(`sequential through the gateway: p50 ${sequentialMs.p50_ms} ms, p99 ${sequentialMs.p99_ms} ms`);
      const targets = { gateway: stack.urls.gateway, direct: stack.urls.assignment };
      // Warm-up (JIT, pools, NATS connections), not reported.
      await claimRun(targets.gateway, ids, tokens, cursor, { connections: CONNECTIONS, duration: 3 });
      await new Promise((done) => setTimeout(done, 3000));
      const runs = [];
      for (let round = 0; round < ROUNDS; round++) {
        for (const [via, base] of Object.entries(targets)) {
          const before = await claimed();
          const load = loadavg()[0];
          const result = await claimRun(base, ids, tokens, cursor, {
            connections: CONNECTIONS,
            duration: DURATION,
          });
          // Claims in flight when autocannon stopped still finish in the server: let them land.
          await new Promise((done) => setTimeout(done, 3000));
          const after = await claimed();
          assert(
            result.errors === 0 && result.non2xx === 0,
            `${via}: ${result.errors} errors, ${result.non2xx} non-2xx`,
          );
          assert(
            after - before >= result['2xx'] && after - before <= result['2xx'] + CONNECTIONS,
            `${via}: ${result['2xx']} 200s but ${after - before} tasks claimed`,
          );
          const run = {
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
            `${via} round ${run.round}: ${run.claims_per_second} claims/s, p50 ${run.p50_ms} ms, p99 ${run.p99_ms} ms`,
          );
        }
      }
      const outbox = (
        await db.query(`SELECT count(*)::int AS n FROM outbox WHERE subject = 'assignment.task.claimed'`)
      ).rows[0].n;
      const median = (xs) => [...xs].sort((a, b) => a - b)[Math.floor((xs.length - 1) / 2)];
      const summary = Object.fromEntries(
        Object.keys(targets).map((via) => {
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
      await writeResult('assignment-claims.json', {
        benchmark:
          'endpoint 4: claims per second, each request a different OPEN task, claimed for the caller itself',
        measured_at: new Date().toISOString(),
        machine: host,
        setup:
          'acl, assignment and the gateway from dist (LOG_LEVEL info to files), each app on its own database, ' +
          `NATS ${NATS_URL}; autocannon in this process; all on one machine`,
        connections: CONNECTIONS,
        users: USERS,
        duration_seconds_per_run: DURATION,
        per_claim:
          'JWT check at the gateway and in assignment; acl.users.get-many over NATS (claimant status, permissions, groups); ' +
          'one statement: UPDATE ... WHERE status = OPEN and the snapshot and group checks, RETURNING, with the outbox INSERT in the same CTE. ' +
          'The outbox relay publishes the events to JetStream meanwhile (one UPDATE per batch marks them published).',
        checks: 'every run: 0 errors, 0 non-2xx, newly CLAIMED rows = 200s counted',
        claimed_events_in_outbox: outbox,
        sequential_through_gateway: sequentialMs,
        summary,
        runs,
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
