#!/usr/bin/env node
/**
 * The cost of an authenticated request: `GET /acl/api/v1/users/me` and a list endpoint
 * (`GET /acl/api/v1/users?page_size=20`), on acl directly and through the gateway, for two
 * builds side by side: BEFORE (default: the merge base with main, built into a temporary copy) and
 * this worktree's dist (AFTER). Each build runs its own acl (own fresh database, same key, same
 * admin in three groups) and its own gateway in front of it.
 *
 * Rounds interleave the builds (before, after, before, after, ...) so that this shared, noisy
 * machine's drift falls on both alike; a round is autocannon with CONNECTIONS connections for
 * DURATION seconds. Per round: req/s, and acl's CPU per request (utime+stime of the acl process
 * from /proc over the round, divided by the requests it served). Reported: medians over ROUNDS.
 *
 *   npx nx run-many -t build && node bench/acl-auth-cost.mjs
 *
 * Env: BEFORE_DIST (a dist directory of the "before" build; default: builds the merge base into
 * /tmp/acl-auth-cost-before), BENCH_DATABASE_URL, NATS_URL (default nats://127.0.0.1:4222),
 * ROUNDS (default 5), DURATION (s, default 5), CONNECTIONS (default 16), LOG_LEVEL for the apps
 * (default warn: request lines off in both builds). Writes bench/results/acl-auth-cost.json.
 */
import { execSync } from 'node:child_process';
import { generateKeyPairSync, randomBytes } from 'node:crypto';
import { existsSync, mkdirSync, readFileSync, rmSync, symlinkSync } from 'node:fs';
import { join } from 'node:path';
import autocannon from 'autocannon';
import { freePort, startProcess, stopProcess, waitReady } from './lib/processes.mjs';
import { benchDatabase, log, machine, root, withClient, writeResult } from './lib/seed-users.mjs';

const ROUNDS = Number(process.env.ROUNDS ?? 5);
const DURATION = Number(process.env.DURATION ?? 5);
const CONNECTIONS = Number(process.env.CONNECTIONS ?? 16);
const NATS_URL = process.env.NATS_URL ?? 'nats://127.0.0.1:4222';
const LOG_LEVEL = process.env.LOG_LEVEL ?? 'warn';
const TICKS_PER_S = Number(execSync('getconf CLK_TCK').toString().trim()) || 100;

const admin = { email: 'bench-admin@example.com', password: 'bench-admin-password-1' };
const privateKeyPem = generateKeyPairSync('rsa', { modulusLength: 2048 })
  .privateKey.export({ type: 'pkcs8', format: 'pem' })
  .toString();

/** The merge base with main, built once into a temporary copy (node_modules linked). */
function beforeDist() {
  if (process.env.BEFORE_DIST) return { dist: process.env.BEFORE_DIST, commit: 'BEFORE_DIST' };
  const commit = execSync('git merge-base HEAD main', { cwd: root }).toString().trim();
  const dir = '/tmp/acl-auth-cost-before';
  const stamp = join(dir, '.commit');
  if (!existsSync(stamp) || readFileSync(stamp, 'utf8') !== commit) {
    log(`building ${commit.slice(0, 8)} into ${dir}`);
    rmSync(dir, { recursive: true, force: true });
    mkdirSync(dir, { recursive: true });
    execSync(`git archive ${commit} | tar -x -C ${dir}`, { cwd: root, shell: '/bin/bash' });
    symlinkSync(join(root, 'node_modules'), join(dir, 'node_modules'));
    execSync('npx nx run-many -t build -p acl gateway platform contracts', {
      cwd: dir,
      env: { ...process.env, NX_DAEMON: 'false', NX_NO_CLOUD: 'true' },
      stdio: 'ignore',
    });
    execSync(`sh -c 'echo -n ${commit} > ${stamp}'`);
  }
  return { dist: join(dir, 'dist'), commit };
}

/** Starts a build's entry (its stderr is ours) and returns the child. */
const start = (entry, env) => startProcess('acl-auth-cost', entry, env, { stderr: 'inherit' }).child;

/** utime + stime of a process, in ms. */
function cpuMs(pid) {
  const fields = readFileSync(`/proc/${pid}/stat`, 'utf8').split(') ')[1].split(' ');
  return ((Number(fields[11]) + Number(fields[12])) / TICKS_PER_S) * 1000;
}

async function boot(name, dist) {
  const database = benchDatabase(`bench_acl_auth_${name}`);
  await database.create();
  const aclPort = await freePort();
  const gatewayPort = await freePort();
  const acl = `http://127.0.0.1:${aclPort}`;
  const aclChild = start(join(dist, 'apps/acl/src/main.js'), {
    PORT: String(aclPort),
    ACL_PORT: String(aclPort),
    DATABASE_URL: database.url,
    NATS_URL,
    CURSOR_SECRET: randomBytes(32).toString('hex'),
    JWT_PRIVATE_KEY: privateKeyPem,
    JWT_JWKS_URL: `${acl}/acl/.well-known/jwks.json`,
    ADMIN_EMAIL: admin.email,
    ADMIN_PASSWORD: admin.password,
    LOG_LEVEL,
    // Keep the two builds' durable consumers apart on a shared NATS.
    EVENTS_CONSUMER_PREFIX: `bench-${name}`,
  });
  await waitReady(`${acl}/acl/health/ready`, { child: aclChild, timeoutMs: 120_000 });
  const gatewayChild = start(join(dist, 'apps/gateway/src/main.js'), {
    GATEWAY_PORT: String(gatewayPort),
    GATEWAY_METRICS_PORT: '0',
    PORT: String(gatewayPort),
    ACL_URL: acl,
    JWT_JWKS_URL: `${acl}/acl/.well-known/jwks.json`,
    // Where the gateway hears of revoked tokens (a build without the check ignores it).
    NATS_URL,
    RATE_LIMIT_PER_MINUTE: '100000000',
    LOG_LEVEL,
  });
  const gatewayReady = { child: gatewayChild, timeoutMs: 120_000 };
  await waitReady(`http://127.0.0.1:${gatewayPort}/health/live`, gatewayReady).catch(() =>
    waitReady(`http://127.0.0.1:${gatewayPort}/openapi.json`, gatewayReady),
  );
  // The admin in three groups, as a real user would be.
  await withClient(database.url, async (db) => {
    await db.query(`INSERT INTO groups (name) SELECT 'bench group ' || g FROM generate_series(1, 3) g`);
    await db.query(
      `INSERT INTO group_members (group_id, user_id) SELECT g.id, u.id FROM groups g, users u WHERE u.email = $1`,
      [admin.email],
    );
  });
  const login = await fetch(`${acl}/acl/api/v1/auth/token`, {
    method: 'POST',
    headers: { 'content-type': 'application/json' },
    body: JSON.stringify(admin),
  });
  if (login.status !== 200) throw new Error(`${name}: login ${login.status}`);
  const { access_token: token } = await login.json();
  return {
    name,
    acl,
    gateway: `http://127.0.0.1:${gatewayPort}`,
    token,
    aclPid: aclChild.pid,
    stop: async () => {
      for (const child of [gatewayChild, aclChild]) await stopProcess(child);
      await database.drop();
    },
  };
}

async function measure(variant, base, path) {
  const before = cpuMs(variant.aclPid);
  const result = await autocannon({
    url: `${base}${path}`,
    connections: CONNECTIONS,
    duration: DURATION,
    headers: { authorization: `Bearer ${variant.token}` },
  });
  const cpu = cpuMs(variant.aclPid) - before;
  const ok = result['2xx'];
  if (result.non2xx > 0 || ok === 0) throw new Error(`${variant.name} ${path}: ${result.non2xx} non-2xx`);
  return {
    req_per_s: Number((ok / DURATION).toFixed(1)),
    p50_ms: result.latency.p50,
    p99_ms: result.latency.p99,
    acl_cpu_ms_per_request: Number((cpu / ok).toFixed(3)),
  };
}

const median = (xs) => {
  const s = [...xs].sort((a, b) => a - b);
  return s.length % 2 ? s[(s.length - 1) / 2] : (s[s.length / 2 - 1] + s[s.length / 2]) / 2;
};

async function main() {
  const before = beforeDist();
  const variants = [];
  try {
    variants.push(await boot('before', before.dist));
    variants.push(await boot('after', join(root, 'dist')));
    const cases = [
      ['users/me direct', 'acl', '/acl/api/v1/users/me'],
      ['users/me via gateway', 'gateway', '/acl/api/v1/users/me'],
      ['users list direct', 'acl', '/acl/api/v1/users?page_size=20'],
      ['users list via gateway', 'gateway', '/acl/api/v1/users?page_size=20'],
    ];
    const samples = {};
    for (const variant of variants) await measure(variant, variant.acl, cases[0][2]); // warm-up
    for (let round = 1; round <= ROUNDS; round++) {
      for (const [label, target, path] of cases) {
        for (const variant of round % 2 ? variants : [...variants].reverse()) {
          const figures = await measure(variant, variant[target], path);
          ((samples[label] ??= {})[variant.name] ??= []).push(figures);
          log(`round ${round} ${label} ${variant.name}: ${JSON.stringify(figures)}`);
        }
      }
    }
    const results = {};
    for (const [label, byVariant] of Object.entries(samples)) {
      const summary = {};
      for (const [name, runs] of Object.entries(byVariant)) {
        summary[name] = {
          median_req_per_s: median(runs.map((r) => r.req_per_s)),
          median_acl_cpu_ms_per_request: median(runs.map((r) => r.acl_cpu_ms_per_request)),
          median_p50_ms: median(runs.map((r) => r.p50_ms)),
          runs,
        };
      }
      summary.speedup = Number((summary.after.median_req_per_s / summary.before.median_req_per_s).toFixed(2));
      summary.cpu_ratio = Number(
        (summary.after.median_acl_cpu_ms_per_request / summary.before.median_acl_cpu_ms_per_request).toFixed(
          2,
        ),
      );
      results[label] = summary;
    }
    const report = await withClient(
      process.env.BENCH_DATABASE_URL ?? 'postgres://postgres@127.0.0.1:5432/postgres',
      async (db) => ({
        measured_at: new Date().toISOString(),
        before: { commit: before.commit },
        after: {
          commit: execSync('git rev-parse HEAD', { cwd: root }).toString().trim(),
          dirty: !!execSync('git status --porcelain -- apps libs', { cwd: root }).toString().trim(),
        },
        settings: { rounds: ROUNDS, duration_s: DURATION, connections: CONNECTIONS, log_level: LOG_LEVEL },
        machine: { ...(await machine(db)), loadavg_at_end: (await import('node:os')).loadavg() },
        results,
      }),
    );
    await writeResult('acl-auth-cost.json', report);
    for (const [label, r] of Object.entries(results))
      log(
        `${label}: before ${r.before.median_req_per_s} req/s, after ${r.after.median_req_per_s} req/s (x${r.speedup}); CPU/request ${r.before.median_acl_cpu_ms_per_request} -> ${r.after.median_acl_cpu_ms_per_request} ms`,
      );
  } finally {
    for (const variant of variants) await variant.stop();
  }
}

main().catch((error) => {
  log(error.stack ?? String(error));
  process.exit(1);
});
