#!/usr/bin/env node
/**
 * `npm start` from the command to ready, and the memory of the whole system in one process:
 *
 * - first start: a fresh data directory (initdb, migrations, the administrator), build cached;
 * - RUNS warm starts on that data directory (the usual case), each stopped with Ctrl-C (SIGINT);
 * - the runner's resident memory after start, then sampled every second under LOAD_SECONDS of
 *   autocannon (16 connections, `GET /acl/api/v1/users/me` through the gateway), to see that it
 *   stays flat.
 *
 * "Ready" is the runner's `ready in` line, the moment it prints the URL. The data directory is
 * a temporary one (never ./.data); the ports are free ones.
 *
 *   node bench/startup.mjs            (npm run bench builds first)
 *
 * Env: RUNS (3), LOAD_SECONDS (120). Writes bench/results/startup.json.
 */
import { execFileSync, spawn } from 'node:child_process';
import { once } from 'node:events';
import { mkdtempSync, readFileSync, rmSync } from 'node:fs';
import { loadavg, tmpdir } from 'node:os';
import { join } from 'node:path';
import { logIn, runAutocannon } from './lib/app-server.mjs';
import { freePort } from './lib/processes.mjs';
import { assert, log, root, writeResult } from './lib/seed-users.mjs';

const RUNS = Number(process.env.RUNS ?? 3);
const LOAD_SECONDS = Number(process.env.LOAD_SECONDS ?? 120);
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
const admin = { email: 'startup-admin@example.com', password: 'startup-admin-password-1' };

const round2 = (x) => Number(x.toFixed(2));
const median = (xs) => [...xs].sort((a, b) => a - b)[Math.floor((xs.length - 1) / 2)];

function rssMib(pid) {
  const status = readFileSync(`/proc/${pid}/status`, 'utf8');
  return round2(Number(/VmRSS:\s+(\d+) kB/.exec(status)[1]) / 1024);
}

/** Runs `npm start` until its `ready in` line; returns the seconds, the runner's pid and a stop(). */
async function start(env) {
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

async function underLoad(env, runner) {
  const gateway = `http://127.0.0.1:${env.GATEWAY_PORT}`;
  const token = await logIn(gateway, admin);
  const samples = [rssMib(runner)];
  const sampler = setInterval(() => samples.push(rssMib(runner)), 1000);
  try {
    const result = await runAutocannon({
      url: `${gateway}/acl/api/v1/users/me`,
      headers: { authorization: `Bearer ${token}` },
      connections: 16,
      duration: LOAD_SECONDS,
    });
    assert(result.non2xx === 0, `${result.non2xx} non-2xx answers under load`);
    const tail = samples.slice(-Math.max(2, Math.floor(samples.length / 4)));
    return {
      requests: result.requests.total,
      req_per_s: result.requests.average,
      rss_mib_samples_every_s: samples,
      rss_max_mib: Math.max(...samples),
      rss_last_quarter_growth_mib: round2(tail.at(-1) - tail[0]),
    };
  } finally {
    clearInterval(sampler);
  }
}

async function main() {
  const dataDir = mkdtempSync(join(tmpdir(), 'bench-startup-'));
  const env = {
    ...process.env,
    DATA_DIR: dataDir,
    ADMIN_EMAIL: admin.email,
    ADMIN_PASSWORD: admin.password,
    // The load measures memory, not the gateway's per-client limit (else nearly every answer is a 429).
    RATE_LIMIT_PER_MINUTE: '0',
  };
  for (const app of APPS) env[`${app}_PORT`] = String(await freePort());
  env.GATEWAY_METRICS_PORT = String(await freePort());
  try {
    log('first start (new data directory)');
    const first = await start(env);
    await first.stop();
    const warm = [];
    let memory;
    for (let i = 0; i < RUNS; i++) {
      log(`warm start ${i + 1}/${RUNS}`);
      const run = await start(env);
      warm.push(run);
      if (i === RUNS - 1) {
        const rss = rssMib(run.runner);
        log(`under load for ${LOAD_SECONDS} s`);
        const load = await underLoad(env, run.runner);
        memory = { rss_mib: rss, rss_after_load_mib: load.rss_mib_samples_every_s.at(-1), load };
      }
      await run.stop();
    }
    await writeResult('startup.json', {
      benchmark: '`npm start` to ready (first and warm), and the memory of all apps in one process',
      measured_at: new Date().toISOString(),
      load_average_at_end: loadavg().map(round2),
      node: process.version,
      first: { seconds: first.seconds, phases: first.phases },
      warm: {
        runs_s: warm.map((r) => r.seconds),
        median_s: median(warm.map((r) => r.seconds)),
        phases: warm.at(-1).phases,
      },
      memory,
    });
  } finally {
    rmSync(dataDir, { recursive: true, force: true });
  }
}

main().catch((error) => {
  log(error?.stack ?? String(error));
  process.exitCode = 1;
});
