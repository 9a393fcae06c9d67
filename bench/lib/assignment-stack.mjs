/**
 * What the assignment benchmarks share: acl, assignment and the gateway booted from dist as
 * their own processes, each app on a fresh database of its own (never .data), on the NATS of
 * NATS_URL; a signing key given to acl so that tokens minted here verify everywhere.
 */
import { spawn } from 'node:child_process';
import { randomBytes } from 'node:crypto';
import { once } from 'node:events';
import { closeSync, openSync } from 'node:fs';
import { createRequire } from 'node:module';
import { tmpdir } from 'node:os';
import { join } from 'node:path';
import { benchDatabase, dist, log } from './seed-users.mjs';

const require = createRequire(import.meta.url);
const { generateTestKeys, mintToken } = require(dist('libs/testing/src/tokens.js'));
const { freePort } = require(dist('libs/testing/src/ports.js'));

export { mintToken };

const APPS = [
  'CONTENT',
  'ASSIGNMENT',
  'INVENTORY',
  'COMMERCIAL',
  'PAYMENT',
  'ACL',
  'DOCUMENTS',
  'CHAT_NOTIFICATIONS',
];

async function waitReady(url, child, logFile) {
  const deadline = Date.now() + 90_000;
  for (;;) {
    if (child.exitCode !== null) throw new Error(`${url}: exited with ${child.exitCode}; log in ${logFile}`);
    try {
      const res = await fetch(url, { signal: AbortSignal.timeout(1000) });
      await res.arrayBuffer();
      if (res.ok) return;
    } catch {
      // not listening yet
    }
    if (Date.now() > deadline) throw new Error(`${url} not ready within 90 s; log in ${logFile}`);
    await new Promise((done) => setTimeout(done, 200));
  }
}

function start(name, main, env) {
  const logFile = join(tmpdir(), `bench-assignment-${name}-${Date.now()}.log`);
  const fd = openSync(logFile, 'w');
  const child = spawn(process.execPath, [dist(main)], {
    env: { ...env, PATH: process.env.PATH ?? '' },
    stdio: ['ignore', fd, fd],
  });
  closeSync(fd);
  return { child, logFile };
}

async function stop(child) {
  if (child.exitCode !== null) return;
  const kill = setTimeout(() => child.kill('SIGKILL'), 10_000);
  child.kill('SIGTERM');
  await once(child, 'exit');
  clearTimeout(kill);
}

/**
 * Boots the three. `beforeApps(databases)` runs after the databases exist and before any app
 * starts (e.g. to apply migrations and seed). Returns the URLs, the admin credentials, a
 * token minting helper and `stop()`, which also drops the databases (kept with KEEP_DB=1).
 */
export async function startAssignmentStack({ prefix, natsUrl, env: extra = {} }) {
  const databases = { acl: benchDatabase(`${prefix}_acl`), assignment: benchDatabase(`${prefix}_tasks`) };
  for (const db of Object.values(databases)) await db.create();
  const keys = generateTestKeys();
  const admin = { email: 'bench-admin@example.com', password: 'bench-admin-password' };
  const ports = { acl: await freePort(), assignment: await freePort(), gateway: await freePort() };
  const urls = Object.fromEntries(
    Object.entries(ports).map(([app, port]) => [app, `http://127.0.0.1:${port}`]),
  );
  const common = {
    NATS_URL: natsUrl,
    CURSOR_SECRET: randomBytes(32).toString('hex'),
    JWT_JWKS_URL: `${urls.acl}/acl/.well-known/jwks.json`,
    LOG_LEVEL: 'info',
    ...extra,
  };
  const processes = [];
  try {
    const acl = start('acl', 'apps/acl/src/main.js', {
      ...common,
      PORT: String(ports.acl),
      DATABASE_URL: databases.acl.url,
      JWT_PRIVATE_KEY: keys.privateKeyPem,
      ADMIN_EMAIL: admin.email,
      ADMIN_PASSWORD: admin.password,
    });
    processes.push(acl);
    await waitReady(`${urls.acl}/acl/health/ready`, acl.child, acl.logFile);
    const assignment = start('assignment', 'apps/assignment/src/main.js', {
      ...common,
      PORT: String(ports.assignment),
      DATABASE_URL: databases.assignment.url,
    });
    processes.push(assignment);
    await waitReady(`${urls.assignment}/assignment/health/ready`, assignment.child, assignment.logFile);
    const gatewayEnv = { ...common, GATEWAY_PORT: String(ports.gateway), RATE_LIMIT_PER_MINUTE: '0' };
    // Apps not started here point at assignment; the benchmarks never route to them.
    for (const app of APPS) gatewayEnv[`${app}_URL`] = urls.assignment;
    gatewayEnv.ACL_URL = urls.acl;
    const gateway = start('gateway', 'apps/gateway/src/main.js', gatewayEnv);
    processes.push(gateway);
    await waitReady(`${urls.gateway}/health/live`, gateway.child, gateway.logFile);
  } catch (error) {
    for (const p of processes) await stop(p.child);
    for (const db of Object.values(databases)) await db.drop();
    throw error;
  }
  log(`acl ${urls.acl}, assignment ${urls.assignment}, gateway ${urls.gateway}`);
  return {
    urls,
    admin,
    cursorSecret: common.CURSOR_SECRET,
    databases,
    token: (claims) => mintToken(keys, { expiresIn: 3600, ...claims }),
    async stop() {
      for (const p of processes.reverse()) await stop(p.child);
      for (const db of Object.values(databases)) await db.drop();
    },
  };
}
