#!/usr/bin/env node
/**
 * acl's `GET /acl/api/v1/users/me` and `GET /acl/health/live` for several builds of acl side by
 * side: what one item of the request path costs, measured by running a build without it beside
 * one with it. Each variant is a `dist` directory (`name=dir` arguments; no argument: this
 * worktree's dist alone); each runs its own acl on a fresh database of its own, same key, same
 * admin, logging at LOG_LEVEL (`info`, as in production and request-path.mjs).
 *
 * Rounds interleave the variants (their order rotates each round, so no variant always runs
 * first or right after the machine's busiest moment); in a round each variant serves users/me
 * then health/live for DURATION seconds with CONNECTIONS connections. Per round and variant:
 * req/s and acl's CPU per request (utime + stime from /proc over the autocannon run, divided by
 * the requests served). Reported: medians over ROUNDS, and the ratio users/me ÷ health/live
 * (request-path.mjs's figure) per round and its median.
 *
 *   npm run build --silent && node bench/acl-variants.mjs base=dist no-interceptors=/tmp/v1/dist
 *
 * A variant's dist is typically a copy of this one with one compiled file changed (the item
 * switched off). Env: NATS_URL (default nats://127.0.0.1:4222: give a private one), ROUNDS (6),
 * DURATION (s, 5), CONNECTIONS (16), LOG_LEVEL (info), RESULT (file name under bench/results/,
 * default acl-variants.json).
 */
import { execSync } from 'node:child_process';
import { generateKeyPairSync, randomBytes } from 'node:crypto';
import { readFileSync } from 'node:fs';
import { loadavg } from 'node:os';
import { isAbsolute, join } from 'node:path';
import autocannon from 'autocannon';
import { freePort, startProcess, stopProcess, waitReady } from './lib/processes.mjs';
import { benchDatabase, log, root, writeResult } from './lib/seed-users.mjs';

const ROUNDS = Number(process.env.ROUNDS ?? 6);
const DURATION = Number(process.env.DURATION ?? 5);
const CONNECTIONS = Number(process.env.CONNECTIONS ?? 16);
const NATS_URL = process.env.NATS_URL ?? 'nats://127.0.0.1:4222';
const LOG_LEVEL = process.env.LOG_LEVEL ?? 'info';
const RESULT = process.env.RESULT ?? 'acl-variants.json';
const TICKS_PER_S = Number(execSync('getconf CLK_TCK').toString().trim()) || 100;

const admin = { email: 'bench-admin@example.com', password: 'bench-admin-password-1' };
const privateKeyPem = generateKeyPairSync('rsa', { modulusLength: 2048 })
  .privateKey.export({ type: 'pkcs8', format: 'pem' })
  .toString();

const round3 = (x) => Number(x.toFixed(3));
const median = (xs) => {
  const s = [...xs].sort((a, b) => a - b);
  return s.length % 2 ? s[(s.length - 1) / 2] : (s[s.length / 2 - 1] + s[s.length / 2]) / 2;
};

/** `name=dir` arguments (a relative dir is under this worktree); this dist alone by default. */
function variantsOf(args) {
  if (args.length === 0) return [{ name: 'current', dist: join(root, 'dist') }];
  return args.map((arg) => {
    const [name, dir] = arg.split('=');
    if (!name || !dir) throw new Error(`a variant is name=dist-dir, not ${arg}`);
    return { name, dist: isAbsolute(dir) ? dir : join(root, dir) };
  });
}

/** utime + stime of a process, in ms. */
function cpuMs(pid) {
  const fields = readFileSync(`/proc/${pid}/stat`, 'utf8').split(') ')[1].split(' ');
  return ((Number(fields[11]) + Number(fields[12])) / TICKS_PER_S) * 1000;
}

async function boot({ name, dist }) {
  const database = benchDatabase(`bench_acl_variant_${name.replace(/\W/g, '_')}`);
  await database.create();
  const port = await freePort();
  const base = `http://127.0.0.1:${port}`;
  const { child, logFile } = startProcess(`acl-variant-${name}`, join(dist, 'apps/acl/src/main.js'), {
    PORT: String(port),
    ACL_PORT: String(port),
    DATABASE_URL: database.url,
    NATS_URL,
    CURSOR_SECRET: randomBytes(32).toString('hex'),
    JWT_PRIVATE_KEY: privateKeyPem,
    JWT_JWKS_URL: `${base}/acl/.well-known/jwks.json`,
    ADMIN_EMAIL: admin.email,
    ADMIN_PASSWORD: admin.password,
    LOG_LEVEL,
    EVENTS_CONSUMER_PREFIX: `bench-variant-${name}`,
  });
  await waitReady(`${base}/acl/health/ready`, { child, logFile, timeoutMs: 120_000 });
  const login = await fetch(`${base}/acl/api/v1/auth/token`, {
    method: 'POST',
    headers: { 'content-type': 'application/json' },
    body: JSON.stringify(admin),
  });
  if (login.status !== 200) throw new Error(`${name}: login ${login.status}`);
  const { access_token: token } = await login.json();
  return {
    name,
    dist,
    base,
    token,
    pid: child.pid,
    stop: async () => {
      await stopProcess(child);
      await database.drop();
    },
  };
}

const CASES = {
  users_me: { path: '/acl/api/v1/users/me', authenticated: true },
  health_live: { path: '/acl/health/live', authenticated: false },
};

async function measure(variant, { path, authenticated }) {
  const before = cpuMs(variant.pid);
  const result = await autocannon({
    url: `${variant.base}${path}`,
    connections: CONNECTIONS,
    duration: DURATION,
    headers: authenticated ? { authorization: `Bearer ${variant.token}` } : {},
  });
  const cpu = cpuMs(variant.pid) - before;
  const ok = result['2xx'];
  if (result.non2xx > 0 || ok === 0) throw new Error(`${variant.name} ${path}: ${result.non2xx} non-2xx`);
  return {
    req_per_s: Number((ok / DURATION).toFixed(1)),
    p50_ms: result.latency.p50,
    acl_cpu_ms_per_request: round3(cpu / ok),
  };
}

async function main() {
  const variants = [];
  // Interrupted: the acl processes and their databases go too.
  process.once('SIGINT', () => {
    Promise.allSettled(variants.map((v) => v.stop())).finally(() => process.exit(130));
  });
  try {
    for (const spec of variantsOf(process.argv.slice(2))) variants.push(await boot(spec));
    for (const variant of variants) {
      for (const spec of Object.values(CASES)) await measure(variant, spec); // warm-up
    }
    const rounds = Object.fromEntries(variants.map((v) => [v.name, []]));
    const loads = [];
    for (let round = 0; round < ROUNDS; round++) {
      loads.push(Number(loadavg()[0].toFixed(2)));
      const order = variants.map((_, i) => variants[(i + round) % variants.length]);
      for (const variant of order) {
        const figures = {};
        for (const [label, spec] of Object.entries(CASES)) figures[label] = await measure(variant, spec);
        figures.ratio = round3(figures.users_me.req_per_s / figures.health_live.req_per_s);
        rounds[variant.name].push(figures);
        log(
          `round ${round + 1} ${variant.name}: users/me ${figures.users_me.req_per_s} req/s ` +
            `(${figures.users_me.acl_cpu_ms_per_request} ms CPU), health ${figures.health_live.req_per_s} req/s ` +
            `(${figures.health_live.acl_cpu_ms_per_request} ms CPU), ratio ${figures.ratio}`,
        );
      }
    }
    const results = {};
    for (const variant of variants) {
      const runs = rounds[variant.name];
      const of = (label, key) => round3(median(runs.map((r) => r[label][key])));
      results[variant.name] = {
        dist: variant.dist,
        users_me: {
          req_per_s: of('users_me', 'req_per_s'),
          acl_cpu_ms_per_request: of('users_me', 'acl_cpu_ms_per_request'),
        },
        health_live: {
          req_per_s: of('health_live', 'req_per_s'),
          acl_cpu_ms_per_request: of('health_live', 'acl_cpu_ms_per_request'),
        },
        ratio_median_of_rounds: round3(median(runs.map((r) => r.ratio))),
        ratio_of_medians: round3(of('users_me', 'req_per_s') / of('health_live', 'req_per_s')),
        rounds: runs,
      };
    }
    await writeResult(RESULT, {
      benchmark: 'acl users/me and health/live, builds side by side in interleaved rounds',
      measured_at: new Date().toISOString(),
      settings: { rounds: ROUNDS, duration_s: DURATION, connections: CONNECTIONS, log_level: LOG_LEVEL },
      load_average_at_round_start: loads,
      load_average_at_end: loadavg().map((x) => Number(x.toFixed(2))),
      results,
    });
    for (const [name, r] of Object.entries(results)) {
      log(
        `${name}: users/me ${r.users_me.req_per_s} req/s, ${r.users_me.acl_cpu_ms_per_request} ms CPU; ` +
          `health ${r.health_live.req_per_s} req/s, ${r.health_live.acl_cpu_ms_per_request} ms CPU; ` +
          `ratio ${r.ratio_median_of_rounds} (median of rounds)`,
      );
    }
  } finally {
    for (const variant of variants) await variant.stop();
  }
}

main().catch((error) => {
  log(error.stack ?? String(error));
  process.exit(1);
});
