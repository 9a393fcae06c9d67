/**
 * `npm start` (the embedded runner: all apps in one process) for a benchmark: a temporary data
 * directory, free ports for every app and the gateway's metrics (ten from BENCH_PORT_BASE on when
 * set), started until its `ready in` line and stopped with SIGINT as a terminal's Ctrl-C; and the
 * runner's resident memory from /proc.
 */
import { execFileSync, spawn } from 'node:child_process';
import { once } from 'node:events';
import { mkdtempSync, readFileSync, rmSync } from 'node:fs';
import { createRequire } from 'node:module';
import { tmpdir } from 'node:os';
import { join } from 'node:path';
import { freePort } from './processes.mjs';
import { dist, root } from './seed-users.mjs';

const { relocationBase } = createRequire(import.meta.url)(dist('tools/embedded/src/postgres.js'));

const APPS = [
  'GATEWAY',
  'ACL',
  'CONTENT',
  'ASSIGNMENT',
  'INVENTORY',
  'COMMERCIAL',
  'PAYMENT',
  'DOCUMENTS',
  'CHAT_NOTIFICATIONS',
];

const round2 = (x) => Number(x.toFixed(2));

/** The resident memory of process `pid`, in MiB (VmRSS). */
export function rssMib(pid) {
  return residentMib(pid).rss;
}

/**
 * The resident memory of process `pid`, in MiB, and its parts (/proc/<pid>/status): `anon`,
 * the process's own pages (heaps, V8's and malloc's), and `file`, mapped files (the node binary
 * and its libraries, shared with every other node process).
 */
export function residentMib(pid) {
  const status = readFileSync(`/proc/${pid}/status`, 'utf8');
  const kib = (field) => Number(new RegExp(`${field}:\\s+(\\d+) kB`).exec(status)?.[1] ?? NaN);
  return {
    rss: round2(kib('VmRSS') / 1024),
    anon: round2(kib('RssAnon') / 1024),
    file: round2(kib('RssFile') / 1024),
  };
}

/**
 * The environment of an `npm start` on a new temporary data directory (`prefix`), with free
 * ports, `admin` as the administrator and the gateway's per-client limit off (a benchmark's load
 * would otherwise be answered mostly 429). Returns `{ env, dataDir, remove }`: remove() deletes
 * the data directory and, as root, the base PostgreSQL ran from when it could not enter it.
 */
export async function npmStartEnv(prefix, admin, extra = {}) {
  const dataDir = mkdtempSync(join(tmpdir(), prefix));
  const env = {
    ...process.env,
    DATA_DIR: dataDir,
    ADMIN_EMAIL: admin.email,
    ADMIN_PASSWORD: admin.password,
    RATE_LIMIT_PER_MINUTE: '0',
    ...extra,
  };
  // Distinct ports: from BENCH_PORT_BASE on when given (a range of this machine's own), else
  // ones the OS calls free, which may hand out one port twice in a row.
  const base = Number(process.env.BENCH_PORT_BASE) || undefined;
  const taken = new Set();
  for (const name of [...APPS.map((app) => `${app}_PORT`), 'GATEWAY_METRICS_PORT']) {
    let port = base === undefined ? await freePort() : base + taken.size;
    while (taken.has(port)) port = await freePort();
    taken.add(port);
    env[name] = String(port);
  }
  const remove = () => {
    rmSync(relocationBase(join(dataDir, 'postgres')), { recursive: true, force: true });
    rmSync(dataDir, { recursive: true, force: true });
  };
  return { env, dataDir, remove };
}

/** Runs `npm start` until its `ready in` line; returns the seconds, the runner's pid and a stop(). */
export async function npmStart(env) {
  const started = performance.now();
  const npm = spawn('npm', ['start', '--silent'], { cwd: root, env, stdio: ['ignore', 'ignore', 'pipe'] });
  let stderr = '';
  await new Promise((ready, fail) => {
    npm.stderr.on('data', (chunk) => {
      stderr += chunk;
      if (stderr.includes('ready in')) ready();
    });
    npm.on('exit', (code) => fail(new Error(`npm start exited with ${code} before ready:\n${stderr}`)));
  });
  const seconds = round2((performance.now() - started) / 1000);
  // `npm start` execs the runner in place of its shell: the runner is npm's child.
  const runner = Number(
    execFileSync('pgrep', ['-P', String(npm.pid)])
      .toString()
      .trim()
      .split('\n')[0],
  );
  const phases = [...stderr.matchAll(/\[embedded\] (.+?) \((\d+\.\d) s\)/g)].map(
    (m) => `${m[1]} (${m[2]} s)`,
  );
  return {
    seconds,
    runner,
    phases,
    async stop() {
      process.kill(runner, 'SIGINT');
      await once(npm, 'exit');
    },
  };
}
