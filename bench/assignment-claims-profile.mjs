#!/usr/bin/env node
/**
 * Where a claim's time goes: assignment runs under `node --cpu-prof`, its database connection goes
 * through the statement counter (bench/lib/pg-query-counter.mjs), and autocannon sends claims
 * (CONNECTIONS clients, each request a different OPEN task, as in bench/assignment-claims.mjs)
 * through the gateway for DURATION seconds. Reports the profile's self time by package
 * (bench/lib/cpu-profile.mjs), the statements assignment sent per claim (request path and outbox
 * relay apart), claims/s, and, as the floor, `GET /assignment/health/live` straight to
 * assignment in the same stack; and CPU milliseconds per claim of each process (from /proc, so
 * Linux only): acl, assignment, the gateway and the PostgreSQL backends of their two databases,
 * less noisy than claims/s on a shared machine.
 *
 *   npm run build --silent && NATS_URL=nats://127.0.0.1:4222 node bench/assignment-claims-profile.mjs
 *
 * Env: NATS_URL, CONNECTIONS (50), USERS (50), DURATION (10), TASKS (30000), PROFILE_OUT (a path
 * to keep the .cpuprofile at, for DevTools), CPU_PROF=0 (no profiler: claims/s and CPU only). Prints JSON to stdout
 * (no result file: the profiler and the proxy change what they measure; compare runs of this script).
 */
import { copyFileSync, mkdtempSync, readdirSync, rmSync } from 'node:fs';
import { loadavg, tmpdir } from 'node:os';
import { join } from 'node:path';
import { runAutocannon } from './lib/app-server.mjs';
import { startAssignmentStack } from './lib/assignment-stack.mjs';
import { claimRun, createClaimers } from './lib/claims.mjs';
import { monotonicMicros, selfTime } from './lib/cpu-profile.mjs';
import { cpuMs } from './lib/cpu-time.mjs';
import { backgroundStatements, startQueryCounter } from './lib/pg-query-counter.mjs';
import { assert, log, withClient } from './lib/seed-users.mjs';

const NATS_URL = process.env.NATS_URL ?? 'nats://127.0.0.1:4222';
const CONNECTIONS = Number(process.env.CONNECTIONS ?? 50);
const USERS = Number(process.env.USERS ?? 50);
const DURATION = Number(process.env.DURATION ?? 10);
const TASKS = Number(process.env.TASKS ?? 30_000);
/** The relay's and the jobs' statements, not a request's. */
const BACKGROUND = /^\s*(UPDATE|DELETE FROM)\s+(outbox|processed_events)\b/i;

const CPU_PROF = process.env.CPU_PROF !== '0';

/** CPU ms so far of the stack's processes and of the PostgreSQL backends of its databases. */
async function cpuNow(stack, db) {
  const backends = (
    await db.query(`SELECT pid, datname FROM pg_stat_activity WHERE datname = ANY($1)`, [
      [stack.databases.acl.name, stack.databases.assignment.name],
    ])
  ).rows;
  const postgres = (name) => backends.filter((b) => b.datname === name).map((b) => b.pid);
  return {
    acl: cpuMs(stack.pids.acl),
    assignment: cpuMs(stack.pids.assignment),
    gateway: cpuMs(stack.pids.gateway),
    postgres_acl: postgres(stack.databases.acl.name),
    postgres_assignment: postgres(stack.databases.assignment.name),
  };
}

/** CPU ms per claim between two `cpuNow`s (a backend's time summed over the pids seen at the start). */
function cpuPerClaim(before, claims) {
  const per = (ms) => Number((ms / claims).toFixed(2));
  const backends = (pids) => pids.reduce((sum, pid) => sum + cpuMs(pid), 0);
  return {
    acl: per(cpuMs(before.pids.acl) - before.acl),
    assignment: per(cpuMs(before.pids.assignment) - before.assignment),
    gateway: per(cpuMs(before.pids.gateway) - before.gateway),
    postgres_acl: per(backends(before.postgres_acl) - before.postgres_acl_ms),
    postgres_assignment: per(backends(before.postgres_assignment) - before.postgres_assignment_ms),
  };
}

/** Statements by SQL text (parameters are placeholders, so the text is the statement's shape). */
function byText(statements, per) {
  const counts = new Map();
  for (const { sql } of statements) {
    const text = sql.replace(/\s+/g, ' ').trim().slice(0, 110);
    counts.set(text, (counts.get(text) ?? 0) + 1);
  }
  return [...counts]
    .map(([sql, n]) => ({ per_claim: Number((n / per).toFixed(2)), sql }))
    .sort((a, b) => b.per_claim - a.per_claim);
}

async function main() {
  const profiles = mkdtempSync(join(tmpdir(), 'bench-claims-profile-'));
  const counter = await startQueryCounter();
  const stack = await startAssignmentStack({
    prefix: 'bench_claims_profile',
    natsUrl: NATS_URL,
    env: { ESCALATION_CHECK_INTERVAL: '1h' },
    nodeArgs: CPU_PROF ? { assignment: ['--cpu-prof', `--cpu-prof-dir=${profiles}`] } : {},
    appDatabaseUrl: (url) => counter.url(url),
  });
  const report = {};
  const window = {};
  try {
    const tokens = await createClaimers(stack, USERS);
    await withClient(stack.databases.assignment.url, async (db) => {
      const ids = (
        await db.query(
          `INSERT INTO tasks (workflow_node_code, node_preview_name, required_permissions_snapshot, required_permissions)
           SELECT 'bench-review', 'Bench task ' || g, '[{"code": "tasks:claim"}]', '{tasks:claim}'
             FROM generate_series(1, $1) g RETURNING id`,
          [TASKS],
        )
      ).rows.map((r) => r.id);
      await db.query('VACUUM ANALYZE tasks');
      const cursor = { next: 0 };
      await claimRun(stack.urls.gateway, ids, tokens, cursor, { connections: CONNECTIONS, duration: 3 }); // warm-up
      await new Promise((done) => setTimeout(done, 2000));
      const load = loadavg()[0];
      const cpu = await cpuNow(stack, db);
      Object.assign(cpu, {
        pids: stack.pids,
        postgres_acl_ms: cpu.postgres_acl.reduce((sum, pid) => sum + cpuMs(pid), 0),
        postgres_assignment_ms: cpu.postgres_assignment.reduce((sum, pid) => sum + cpuMs(pid), 0),
      });
      const t0 = performance.now();
      window.from = monotonicMicros();
      const result = await claimRun(stack.urls.gateway, ids, tokens, cursor, {
        connections: CONNECTIONS,
        duration: DURATION,
      });
      window.to = monotonicMicros();
      await new Promise((done) => setTimeout(done, 2000)); // the relay catches up
      const t1 = performance.now();
      const cpuMsPerClaim = cpuPerClaim(cpu, result['2xx']);
      assert(result.errors === 0 && result.non2xx === 0, `${result.errors} errors, ${result.non2xx} non-2xx`);
      const statements = counter.since(t0, t1);
      const n = result['2xx'];
      const relay = backgroundStatements(statements, (sql) => BACKGROUND.test(sql));
      const request = statements.filter((s) => !relay.has(s));
      const background = statements.filter((s) => relay.has(s));
      const floor = await runAutocannon({
        url: `${stack.urls.assignment}/assignment/health/live`,
        connections: CONNECTIONS,
        duration: 5,
      });
      Object.assign(report, {
        load_average_1m_before: Number(load.toFixed(2)),
        claims: n,
        claims_per_second: Math.round(n / DURATION),
        p50_ms: result.latency.p50,
        p99_ms: result.latency.p99,
        health_live_direct_req_per_s: Math.round(floor.requests.average),
        cpu_ms_per_claim: cpuMsPerClaim,
        statements_per_claim: {
          request: Number((request.length / n).toFixed(2)),
          outbox_relay_and_jobs: Number((background.length / n).toFixed(2)),
          by_text: byText(statements, n),
        },
      });
    });
  } finally {
    await stack.stop();
    await counter.stop();
  }
  if (!CPU_PROF) return process.stdout.write(`${JSON.stringify(report, null, 2)}\n`);
  const file = readdirSync(profiles).find((name) => name.includes(`.${stack.pids.assignment}.`));
  assert(file, `no profile of assignment (pid ${stack.pids.assignment}) in ${profiles}`);
  const { groups, functions } = selfTime(join(profiles, file), { ...window, top: 30 });
  if (process.env.PROFILE_OUT) copyFileSync(join(profiles, file), process.env.PROFILE_OUT);
  rmSync(profiles, { recursive: true, force: true });
  report.self_time = groups.slice(0, 20);
  report.top_functions = functions;
  process.stdout.write(`${JSON.stringify(report, null, 2)}\n`);
}

main().catch((error) => {
  log(error?.stack ?? String(error));
  process.exitCode = 1;
});
