#!/usr/bin/env node
/**
 * What recording the audit trail costs a write (CONTRACT §8.1): claims per second (endpoint 4)
 * with the audit row trigger on `tasks` enabled and disabled, alternating in the same run on the
 * same stack (so the machine's noise hits both alike). Enabled, each claim writes its audit entry
 * in its own statement's transaction (the trigger computes the field changes) and the sealer and
 * the AUDIT publisher run meanwhile; disabled, the claim writes no entry (everything else the
 * same). CONNECTIONS clients (default 50), each request a different OPEN task, straight to
 * assignment (the gateway's share is the same either way: bench/assignment-claims.mjs). Then the
 * claim's UPDATE alone, STATEMENTS (2000) one after another in one transaction, off and on: the
 * trigger's own cost in PostgreSQL, less noisy than claims/s on a shared machine. Each run also
 * reads, from /proc, the CPU milliseconds per claim of assignment and of its database's
 * PostgreSQL backends (claims, sealer, publisher), of acl and its database's backends (the merged
 * audit copy) and of nats-server (the 3 s after the run included, in which the last entries are
 * sealed, published and copied).
 *
 *   npm run build --silent && node bench/audit-write.mjs
 *
 * Env: NATS_URL (default: a nats-server this script starts, whose CPU per claim it reads too; with
 * NATS_PID, that of a given one), BUILD_DIST (the apps of another build's dist, e.g. the previous
 * build's, to compare; default this checkout's), BENCH_DATABASE_URL, CONNECTIONS (50), USERS (50),
 * DURATION (seconds per run, 10), ROUNDS (3: off, on per round, the order turned every round, so
 * an even number puts each first equally often), TASKS (OPEN tasks seeded, 300,000), STATEMENTS
 * (per statement round, 2,000), KEEP_DB=1, PROFILE_DIR (assignment runs with --cpu-prof into it,
 * and the result names where its CPU per claim went, off and on: self time per package and the
 * functions whose share grew most), STAGES=1 (two more modes, off, trigger, sealed, on, where the
 * trail's cost lands: `trigger`, the entries written but the sealer held off by holding its
 * advisory lock, and `sealed`, sealing but the publisher held off by its lock, so nothing is
 * published or copied; the CPU of a held run is read when it ends, without its backlog, and that of
 * its backlog as it drains once the lock is let go, the claims stopped: `backlog_cpu_ms_per_entry`).
 * After every run with the trigger on (a held one once its lock is let go), what is left is sealed,
 * published and copied before the next run starts. VIA=gateway sends the claims through the
 * gateway instead (its CPU is not read); AUDIT_SEAL_INTERVAL is passed to the apps. Writes
 * bench/results/audit-write.json. Every run is checked: no error, no non-2xx; with the trigger
 * on, one entry per claim, every one sealed and the chain without gap.
 */
import { readdirSync } from 'node:fs';
import { createRequire } from 'node:module';
import { loadavg } from 'node:os';
import { resolve } from 'node:path';
import pg from 'pg';
import { startAssignmentStack } from './lib/assignment-stack.mjs';
import { claimRun, createClaimers } from './lib/claims.mjs';
import { monotonicMicros, selfTime } from './lib/cpu-profile.mjs';
import { backendsOf, cpuMs, cpuMsOf } from './lib/cpu-time.mjs';
import { assert, dist, log, machine, withClient, writeResult } from './lib/seed-users.mjs';

const { startNats } = createRequire(import.meta.url)(dist('libs/testing/src/nats-server.js'));
const CONNECTIONS = Number(process.env.CONNECTIONS ?? 50);
const USERS = Number(process.env.USERS ?? 50);
const DURATION = Number(process.env.DURATION ?? 10);
const ROUNDS = Number(process.env.ROUNDS ?? 3);
const TASKS = Number(process.env.TASKS ?? 300_000);
const STATEMENTS = Number(process.env.STATEMENTS ?? 2_000);
const MODES = process.env.STAGES === '1' ? ['off', 'trigger', 'sealed', 'on'] : ['off', 'on'];
/** The advisory lock (`hashtextextended(name, 0)`) of the job each held mode leaves out. */
const HELD = { trigger: 'audit-sealer:assignment', sealed: 'audit-publisher:assignment' };
const PROFILE_DIR = process.env.PROFILE_DIR ? resolve(process.env.PROFILE_DIR) : undefined;
const VIA = process.env.VIA ?? 'assignment';
if (!['assignment', 'gateway'].includes(VIA)) throw new Error(`VIA is assignment or gateway, not ${VIA}`);
const SEAL_INTERVAL = process.env.AUDIT_SEAL_INTERVAL;

/** `modes` in round `round`'s order: turned by one place every round. */
const inTurn = (modes, round) => [
  ...modes.slice(round % modes.length),
  ...modes.slice(0, round % modes.length),
];

/**
 * Assignment's self time per claim (µs) in the runs of each mode, by package and by function:
 * `{ off, on, grew }`, `grew` the functions whose time per claim grew most from off to on.
 */
function profileOf(dir, windows) {
  const [file] = readdirSync(dir).filter((name) => name.endsWith('.cpuprofile'));
  const perClaim = (audit, key) => {
    const totals = new Map();
    const runs = windows.filter((w) => w.audit === audit);
    const claims = runs.reduce((sum, w) => sum + w.claims, 0);
    for (const w of runs)
      for (const row of selfTime(resolve(dir, file), { ...w, top: 400 })[key])
        totals.set(
          row[key === 'groups' ? 'group' : 'function'],
          (totals.get(row[key === 'groups' ? 'group' : 'function']) ?? 0) + row.ms * 1000,
        );
    return new Map([...totals].map(([name, us]) => [name, Math.round(us / claims)]));
  };
  const table = (map, top) => Object.fromEntries([...map].sort((a, b) => b[1] - a[1]).slice(0, top));
  const [offFns, onFns] = [perClaim('off', 'functions'), perClaim('on', 'functions')];
  const grew = new Map([...onFns].map(([name, us]) => [name, us - (offFns.get(name) ?? 0)]));
  return {
    off: table(perClaim('off', 'groups'), 12),
    on: table(perClaim('on', 'groups'), 12),
    grew: table(grew, 20),
  };
}

async function main() {
  // A nats-server of this run's own unless one is given: its CPU per claim is the AUDIT stream's
  // share (with a shared server, other work would be counted too).
  const nats = process.env.NATS_URL ? undefined : await startNats();
  const NATS_URL = process.env.NATS_URL ?? nats.url;
  const natsPid = nats?.pid ?? (process.env.NATS_PID ? Number(process.env.NATS_PID) : undefined);
  const stack = await startAssignmentStack({
    prefix: 'bench_audit_write',
    natsUrl: NATS_URL,
    env: {
      ESCALATION_CHECK_INTERVAL: '1h',
      ...(SEAL_INTERVAL ? { AUDIT_SEAL_INTERVAL: SEAL_INTERVAL } : {}),
    },
    distDir: process.env.BUILD_DIST,
    nodeArgs: PROFILE_DIR ? { assignment: ['--cpu-prof', `--cpu-prof-dir=${PROFILE_DIR}`] } : {},
  });
  const windows = [];
  let result;
  try {
    const tokens = await createClaimers(stack, USERS);
    log(`${tokens.length} acl users created`);
    await withClient(stack.databases.assignment.url, async (db) => {
      const host = await machine(db);
      const trigger = (on) => db.query(`ALTER TABLE tasks ${on ? 'ENABLE' : 'DISABLE'} TRIGGER tasks_audit`);
      // Seeding is not what is measured: its 60k creations would be 60k entries to seal.
      await trigger(false);
      const ids = (
        await db.query(
          `INSERT INTO tasks (workflow_node_code, node_preview_name, required_permissions_snapshot, required_permissions)
           SELECT 'bench-review', 'Bench task ' || g, '[{"code": "tasks:claim"}]', '{tasks:claim}'
             FROM generate_series(1, $1) g RETURNING id`,
          [TASKS],
        )
      ).rows.map((r) => r.id);
      await db.query('VACUUM ANALYZE tasks');
      log(`seeded ${ids.length} OPEN tasks`);
      const count = async (sql) => (await db.query(sql)).rows[0].n;
      const claimed = () => count(`SELECT count(*)::int AS n FROM tasks WHERE status = 'CLAIMED'`);
      const entries = () =>
        count(`SELECT count(*)::int AS n FROM audit_entries WHERE action = 'task.claimed'`);
      const unsealed = () => count(`SELECT count(*)::int AS n FROM audit_entries WHERE seq IS NULL`);

      /**
       * CPU so far of assignment and of its database's backends (the claims', the sealer's and the
       * publisher's); `perClaim(n)` answers the ms spent since, per claim.
       */
      const cpuNow = async () => {
        const pids = await backendsOf(db, stack.databases.assignment.name);
        const aclPids = await backendsOf(db, stack.databases.acl.name);
        const start = {
          assignment: cpuMs(stack.pids.assignment),
          postgres: cpuMsOf(pids),
          acl: cpuMs(stack.pids.acl),
          postgresAcl: cpuMsOf(aclPids),
          nats: natsPid ? cpuMs(natsPid) : 0,
        };
        return {
          perClaim: async (n) => {
            const per = (ms) => Number((ms / n).toFixed(2));
            return {
              assignment: per(cpuMs(stack.pids.assignment) - start.assignment),
              postgres_assignment: per(cpuMsOf(pids) - start.postgres),
              // acl checks each claim's token (its own cache) and keeps the merged audit copy.
              acl: per(cpuMs(stack.pids.acl) - start.acl),
              postgres_acl: per(cpuMsOf(aclPids) - start.postgresAcl),
              ...(natsPid ? { nats_server: per(cpuMs(natsPid) - start.nats) } : {}),
            };
          },
        };
      };

      /**
       * Claims in flight when autocannon stopped still finish (on a busy machine, seconds later):
       * waits until the count of claimed tasks held still for a second, 3 s at least, so that they
       * land (and are sealed) before the next run counts.
       */
      const settled = async () => {
        await new Promise((done) => setTimeout(done, 2000));
        for (let last = -1, now = await claimed(); now !== last; last = now, now = await claimed())
          await new Promise((done) => setTimeout(done, 1000));
      };

      /**
       * Holds off the job `mode` leaves out (none for off and on) by holding its advisory lock
       * from a connection of its own, until the answer is called.
       */
      const holdOff = async (mode) => {
        if (!HELD[mode]) return async () => undefined;
        const holder = new pg.Client({ connectionString: stack.databases.assignment.url });
        // A run that fails ends the bench, whose databases are dropped with their connections.
        holder.on('error', () => undefined);
        await holder.connect();
        await holder.query(`SELECT pg_advisory_lock(hashtextextended($1, 0))`, [HELD[mode]]);
        return () => holder.end();
      };
      /** Until every entry is sealed and acl's copy has the chain's head: a run's backlog. */
      const caughtUp = async () => {
        const until = async (done) => {
          const deadline = Date.now() + 120_000;
          while (!(await done())) {
            assert(Date.now() < deadline, 'the audit backlog was not caught up within 2 min');
            await new Promise((resolve) => setTimeout(resolve, 500));
          }
        };
        await until(async () => (await unsealed()) === 0);
        const head = await count(`SELECT coalesce(max(seq), 0)::int AS n FROM audit_entries`);
        await withClient(stack.databases.acl.url, (acl) =>
          until(
            async () =>
              (
                await acl.query(
                  `SELECT coalesce(max(seq), 0)::int AS n FROM audit_all WHERE app = 'assignment'`,
                )
              ).rows[0].n >= head,
          ),
        );
      };

      // The statement rounds' tasks set aside first, so a fast machine's claims cannot use them up.
      const reserved = ROUNDS * 2 * STATEMENTS;
      assert(
        ids.length > reserved,
        `${TASKS} tasks are too few for ${ROUNDS} rounds of ${STATEMENTS} statements: set TASKS`,
      );
      const statementIds = ids.splice(ids.length - reserved);
      const cursor = { next: 0 };
      await claimRun(stack.urls[VIA], ids, tokens, cursor, { connections: CONNECTIONS, duration: 3 });
      await settled();
      const runs = [];
      for (let round = 0; round < ROUNDS; round++) {
        // The order turns every round (off, on; on, off; ...), so the machine's drift and what a
        // run leaves behind (a bigger audit table, autovacuum's work) fall on every mode alike;
        // with ROUNDS a multiple of the modes' count, each mode runs at each place equally often.
        for (const audit of inTurn(MODES, round)) {
          await trigger(audit !== 'off');
          const release = await holdOff(audit);
          const before = { claimed: await claimed(), entries: await entries() };
          const load = loadavg()[0];
          const cpu = await cpuNow();
          const from = monotonicMicros();
          const result = await claimRun(stack.urls[VIA], ids, tokens, cursor, {
            connections: CONNECTIONS,
            duration: DURATION,
          });
          await settled();
          windows.push({ audit, from, to: monotonicMicros(), claims: 0 });
          const after = { claimed: await claimed(), entries: await entries() };
          const cpuPerClaim = await cpu.perClaim(after.claimed - before.claimed);
          // Whatever of its entries is still being sealed, published or copied is done before
          // the next run, so that it lands on none (the held runs' whole backlog, its CPU read).
          const backlog = audit in HELD ? await cpuNow() : undefined;
          await release();
          if (audit !== 'off') await caughtUp();
          const backlogCpu = await backlog?.perClaim(after.entries - before.entries);
          assert(
            result.errors === 0 && result.non2xx === 0,
            `${audit}: ${result.errors} errors, ${result.non2xx} non-2xx`,
          );
          const newlyClaimed = after.claimed - before.claimed;
          assert(
            newlyClaimed >= result['2xx'] && newlyClaimed <= result['2xx'] + CONNECTIONS,
            `${audit}: ${result['2xx']} 200s but ${newlyClaimed} tasks claimed`,
          );
          windows.at(-1).claims = newlyClaimed;
          const newEntries = after.entries - before.entries;
          assert(
            audit === 'off' ? newEntries === 0 : newEntries === newlyClaimed,
            `${audit}: ${newlyClaimed} claims but ${newEntries} audit entries`,
          );
          const run = {
            audit,
            round: round + 1,
            claims: result['2xx'],
            claims_per_second: Math.round(result['2xx'] / DURATION),
            p50_ms: result.latency.p50,
            p99_ms: result.latency.p99,
            audit_entries: newEntries,
            unsealed_3s_after: await unsealed(),
            cpu_ms_per_claim: cpuPerClaim,
            ...(backlogCpu ? { backlog_cpu_ms_per_entry: backlogCpu } : {}),
            load_average_1m_before: Number(load.toFixed(1)),
          };
          runs.push(run);
          log(
            `audit ${audit} round ${run.round}: ${run.claims_per_second} claims/s, p50 ${run.p50_ms} ms, p99 ${run.p99_ms} ms`,
          );
        }
      }
      // The statement alone, one connection, one at a time: what the trigger adds to a claim's UPDATE
      // in PostgreSQL (less noisy than claims/s on a shared machine).
      const statement = [];
      for (let round = 0; round < ROUNDS; round++) {
        for (const audit of inTurn(['off', 'on'], round)) {
          await trigger(audit === 'on');
          const batch = statementIds.splice(0, STATEMENTS);
          // In one transaction: the statements' CPU, not a WAL flush per commit.
          await db.query('BEGIN');
          const t0 = performance.now();
          for (const id of batch) {
            await db.query(
              `UPDATE tasks SET status = 'CLAIMED', assigned_to = gen_random_uuid(), assigned_at = now(),
                      assigned_to_user = '{"name": "Bench"}', updated_at = now()
                WHERE id = $1 AND status = 'OPEN'`,
              [id],
            );
          }
          const us = Math.round(((performance.now() - t0) * 1000) / batch.length);
          await db.query('COMMIT');
          statement.push({ audit, round: round + 1, statements: batch.length, us_per_statement: us });
          log(`statement, audit ${audit} round ${round + 1}: ${us} µs`);
        }
      }
      await new Promise((done) => setTimeout(done, 3000));
      const gaps = await count(
        `SELECT count(*)::int AS n FROM (SELECT seq - lag(seq) OVER (ORDER BY seq) AS step FROM audit_entries) s WHERE step <> 1`,
      );
      assert(gaps === 0, `${gaps} gaps in the chain`);
      const median = (xs) => [...xs].sort((a, b) => a - b)[Math.floor((xs.length - 1) / 2)];
      const of = (audit) => runs.filter((r) => r.audit === audit);
      const cpuMedian = (audit, key) => median(of(audit).map((r) => r.cpu_ms_per_claim[key]));
      const summary = Object.fromEntries(
        MODES.map((audit) => [
          audit,
          {
            claims_per_second_median: median(of(audit).map((r) => r.claims_per_second)),
            cpu_ms_per_claim_median: {
              assignment: cpuMedian(audit, 'assignment'),
              postgres_assignment: cpuMedian(audit, 'postgres_assignment'),
              acl: cpuMedian(audit, 'acl'),
              postgres_acl: cpuMedian(audit, 'postgres_acl'),
              ...(natsPid ? { nats_server: cpuMedian(audit, 'nats_server') } : {}),
            },
            ...(audit in HELD
              ? {
                  backlog_cpu_ms_per_entry_median: Object.fromEntries(
                    Object.keys(of(audit)[0].backlog_cpu_ms_per_entry).map((key) => [
                      key,
                      median(of(audit).map((r) => r.backlog_cpu_ms_per_entry[key])),
                    ]),
                  ),
                }
              : {}),
          },
        ]),
      );
      summary.statement = {
        off_us_median: median(statement.filter((r) => r.audit === 'off').map((r) => r.us_per_statement)),
        on_us_median: median(statement.filter((r) => r.audit === 'on').map((r) => r.us_per_statement)),
      };
      const overOff = (audit) =>
        Number((summary[audit].claims_per_second_median / summary.off.claims_per_second_median).toFixed(2));
      summary.on_over_off = overOff('on');
      if (MODES.length > 2)
        summary.stages_over_off = Object.fromEntries(MODES.slice(1).map((audit) => [audit, overOff(audit)]));
      log(`audit on / off: ${summary.on_over_off}x`);
      if (summary.stages_over_off) log(`each stage / off: ${JSON.stringify(summary.stages_over_off)}`);
      result = {
        benchmark:
          'claims per second (endpoint 4) with the audit row trigger on tasks enabled vs disabled, same run',
        measured_at: new Date().toISOString(),
        machine: host,
        setup:
          'acl, assignment and the gateway from dist, each app on its own database, ' +
          `NATS ${NATS_URL}; autocannon in this process ` +
          `${VIA === 'gateway' ? 'through the gateway' : 'straight to assignment'}` +
          `${SEAL_INTERVAL ? `, AUDIT_SEAL_INTERVAL=${SEAL_INTERVAL}` : ''}; all on one machine`,
        connections: CONNECTIONS,
        users: USERS,
        duration_seconds_per_run: DURATION,
        modes: MODES,
        checks:
          'every run: 0 errors, 0 non-2xx, newly CLAIMED rows = 200s; every run but off: one entry per claim; the chain without gap',
        summary,
        runs,
        statement,
      };
    });
  } finally {
    await stack.stop();
    await nats?.stop();
  }
  if (PROFILE_DIR) {
    result.assignment_self_us_per_claim = profileOf(PROFILE_DIR, windows);
    log(JSON.stringify(result.assignment_self_us_per_claim, null, 1));
  }
  await writeResult('audit-write.json', result);
}

main().catch((error) => {
  log(error?.stack ?? String(error));
  process.exitCode = 1;
});
