#!/usr/bin/env node
/**
 * `npm run bench`: every benchmark, one after another (they share this machine's cores, so never
 * two at once), each seeding its own database; then the table of figures in
 * docs/benchmarks.md is regenerated from bench/results/*.json (bench/lib/headlines.mjs).
 *
 *   npm run bench                      # full sizes (a million rows where the bench says so)
 *   BENCH_QUICK=1 npm run bench        # small sizes, a few minutes; results go to
 *                                      # dist/bench-quick and the table is printed, not written
 *   npm run bench -- startup gateway   # only the benchmarks whose file name contains a word
 *   node bench/run.mjs --table         # no benchmark: the table from the results as they are
 *                                      # (after one script was run alone)
 *
 * A benchmark that fails is reported and the others still run; the exit code says if any failed.
 * The benchmarks' apps use a nats-server of this run's own (NATS_URL, unless given), so that they
 * never answer the requests of an `npm start` or a test run on the machine's NATS, nor the reverse.
 */
import { spawn } from 'node:child_process';
import { createRequire } from 'node:module';
import { existsSync, readFileSync, writeFileSync } from 'node:fs';
import { join } from 'node:path';
import { HEADLINES, headlineTable } from './lib/headlines.mjs';
import { dist, log, root } from './lib/seed-users.mjs';
import * as prettier from 'prettier';

// @media/testing's private nats-server, from the build (`npm run bench` builds first).
const { startNats } = createRequire(import.meta.url)(dist('libs/testing/src/nats-server.js'));

const QUICK = process.env.BENCH_QUICK === '1';
const QUICK_DIR = join(root, 'dist', 'bench-quick');

/** Sizes for BENCH_QUICK=1, per script (each bench reads these variables; see its header). */
const QUICK_ENV = {
  'request-path.mjs': { DURATION: '2', ROUNDS: '1', NATS_REQUESTS: '200', SEQUENTIAL: '200' },
  'startup.mjs': { RUNS: '1', LOAD_SECONDS: '5' },
  'memory.mjs': { LOAD_SECONDS: '10', IDLE_SECONDS: '2' },
  'assignment-claims.mjs': { DURATION: '2', ROUNDS: '1', TASKS: '5000', USERS: '5', SEQUENTIAL: '20' },
  'bulk-claim.mjs': { ROUNDS: '1' },
  'chat-notifications.mjs': {
    MEMBERS: '20',
    MESSAGES: '20',
    WARMUP: '5',
    // At 50 rooms the planner rightly scans the tiny chat_mentions whole, which the bench's
    // plan check refuses; 1,000 rooms of 5 messages still take seconds.
    ROOMS: '1000',
    MSGS_PER_ROOM: '5',
    SEQUENTIAL: '20',
  },
  'gateway.mjs': {},
  'webhooks.mjs': { EVENTS: '200', ISOLATION_EVENTS: '50' },
  'audit-write.mjs': { ROUNDS: '1', DURATION: '3', TASKS: '12000', STATEMENTS: '500', STAGES: '1' },
  'acl-growth.mjs': { USERS: '20000', RUNS: '3' },
  'acl-users-list.mjs': { USERS: '20000', DURATION: '2', SEQUENTIAL: '20', WALK_PAGES: '5' },
  'assignment-list.mjs': { TASKS: '20000', DURATION: '2', SEQUENTIAL: '20' },
  'commercial-top-clients.mjs': { DEALS: '20000', CLIENTS: '500', REQUESTS: '20' },
  'content-lineup.mjs': { ROWS: '200000', CSV_ROWS: '1000', IMPORTS: '2', SEQUENTIAL: '20' },
  'inventory.mjs': { LINES: '20000', DURATION: '2', RUNS: '3', SEQUENTIAL: '20' },
  'payment-attainment.mjs': { BMS: '50', COLLECTIONS: '5000', REQUESTS: '20' },
  'documents-transfer.mjs': { SIZES: '1,10', ROUNDS: '1' },
  'observability-overhead.mjs': {},
  'validation-amplification.mjs': { PROBES: '3', SINGLE: '1', CONCURRENT: '2' },
  'acl-auth-cost.mjs': { DURATION: '2', ROUNDS: '1' },
  'revocation-check.mjs': { CALLS: '200000', ROUNDS: '3' },
  'audit-read.mjs': {
    ENTRIES: '20000',
    RESOURCES: '2000',
    CHECKPOINT_EVERY: '1000',
    SEQUENTIAL: '20',
    VERIFY_RUNS: '1',
  },
  'acl-profile.mjs': { DURATION: '5' },
  // The script's own quick sizes (60 s, a sample every 10 s, 5 websockets); nothing to add.
  'soak.mjs': {},
  'audit-verify.mjs': { ENTRIES: '100000' },
  'queue-scans.mjs': { DEAD: '20000', PASSES: '2' },
};

function runScript(script, env) {
  return new Promise((resolve) => {
    const child = spawn(process.execPath, [join(root, 'bench', script)], {
      cwd: root,
      env: { ...process.env, ...env },
      stdio: 'inherit',
    });
    child.on('exit', (code, signal) => resolve(code === 0 ? undefined : (signal ?? `exit ${code}`)));
  });
}

const MARK_START = '<!-- bench-table:start (npm run bench writes this table) -->';
const MARK_END = '<!-- bench-table:end -->';

/** Replaces the table between the markers of docs/benchmarks.md, formatted as `npm run lint` wants. */
async function writeTable(table) {
  const file = join(root, 'docs', 'benchmarks.md');
  const text = readFileSync(file, 'utf8');
  const start = text.indexOf(MARK_START);
  const end = text.indexOf(MARK_END);
  if (start < 0 || end < start) throw new Error(`docs/benchmarks.md has no ${MARK_START} ... ${MARK_END}`);
  const written = `${text.slice(0, start + MARK_START.length)}\n\n${table}\n\n${text.slice(end)}`;
  const options = await prettier.resolveConfig(file);
  writeFileSync(file, await prettier.format(written, { ...options, filepath: file }));
  log(`wrote the table of docs/benchmarks.md`);
}

async function main() {
  const words = process.argv.slice(2);
  const tableOnly = words.includes('--table');
  const scripts = tableOnly
    ? []
    : Object.keys(HEADLINES).filter((s) => !words.length || words.some((w) => s.includes(w)));
  if (!scripts.length && !tableOnly) throw new Error(`no benchmark matches ${words.join(', ')}`);
  const resultsDir = QUICK ? QUICK_DIR : (process.env.BENCH_RESULTS_DIR ?? join(root, 'bench', 'results'));
  const failed = [];
  const nats = process.env.NATS_URL || tableOnly ? undefined : await startNats();
  if (nats) log(`NATS of this run: ${nats.url}`);
  for (const script of scripts) {
    const started = Date.now();
    log(`== ${script}${QUICK ? ' (quick)' : ''}`);
    const env = {
      BENCH_RESULTS_DIR: resultsDir,
      // The server's process id too: a benchmark may read its CPU time.
      ...(nats ? { NATS_URL: nats.url, NATS_PID: String(nats.pid) } : {}),
      ...(QUICK ? { BENCH_QUICK: '1', ...QUICK_ENV[script] } : {}),
    };
    const failure = await runScript(script, env);
    log(
      `== ${script}: ${failure ? `FAILED (${failure})` : 'done'} in ${((Date.now() - started) / 1000).toFixed(0)} s`,
    );
    if (failure) failed.push(script);
  }
  await nats?.stop();
  const read = (file) => {
    const path = join(resultsDir, file);
    return existsSync(path) ? JSON.parse(readFileSync(path, 'utf8')) : undefined;
  };
  const table = headlineTable(read);
  if (QUICK || process.env.BENCH_RESULTS_DIR) process.stdout.write(`${table}\n`);
  else await writeTable(table);
  if (failed.length) {
    log(`failed: ${failed.join(', ')}`);
    process.exitCode = 1;
  }
}

main().catch((error) => {
  log(error?.stack ?? String(error));
  process.exitCode = 1;
});
