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
import { loadavg } from 'node:os';
import { logIn, runAutocannon } from './lib/app-server.mjs';
import { npmStart, npmStartEnv, rssMib } from './lib/npm-start.mjs';
import { assert, log, writeResult } from './lib/seed-users.mjs';

const RUNS = Number(process.env.RUNS ?? 3);
const LOAD_SECONDS = Number(process.env.LOAD_SECONDS ?? 120);
const admin = { email: 'startup-admin@example.com', password: 'startup-admin-password-1' };

const round2 = (x) => Number(x.toFixed(2));
const median = (xs) => [...xs].sort((a, b) => a - b)[Math.floor((xs.length - 1) / 2)];

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
  const { env, remove } = await npmStartEnv('bench-startup-', admin);
  try {
    log('first start (new data directory)');
    const first = await npmStart(env);
    await first.stop();
    const warm = [];
    let memory;
    for (let i = 0; i < RUNS; i++) {
      log(`warm start ${i + 1}/${RUNS}`);
      const run = await npmStart(env);
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
    remove();
  }
}

main().catch((error) => {
  log(error?.stack ?? String(error));
  process.exitCode = 1;
});
