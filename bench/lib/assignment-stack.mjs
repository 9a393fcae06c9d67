/**
 * What the assignment benchmarks share: acl, assignment and the gateway booted from dist as
 * their own processes, each app on a fresh database of its own (never .data), on the NATS of
 * NATS_URL; a signing key given to acl so that tokens minted here verify everywhere.
 */
import { randomBytes } from 'node:crypto';
import { createRequire } from 'node:module';
import { BENCH_TOKEN_TTL, upstreamEnv } from './edge.mjs';
import { startProcess, waitReady } from './processes.mjs';
import { benchDatabase, dist, log } from './seed-users.mjs';

const require = createRequire(import.meta.url);
const { generateTestKeys, mintToken } = require(dist('libs/testing/src/tokens.js'));
const { freePort } = require(dist('libs/testing/src/ports.js'));

export { mintToken };

/** Starts `main` (a dist path), adds it to `processes` and waits until `readyUrl` answers 2xx. */
async function startReady(name, main, env, readyUrl, processes) {
  const { child, logFile, stop } = startProcess(`assignment-${name}`, dist(main), env);
  processes.push({ stop });
  await waitReady(readyUrl, { child, logFile, timeoutMs: 90_000 });
}

/**
 * Boots the three. `beforeApps(databases)` runs after the databases exist and before any app
 * starts (e.g. to apply migrations and seed). Returns the URLs, the admin credentials, a
 * token minting helper and `stop()`, which also drops the databases (kept with KEEP_DB=1).
 * `assignmentDatabaseUrl(url)` may rewrite the URL assignment connects with (e.g. through a
 * statement counter).
 */
export async function startAssignmentStack({
  prefix,
  natsUrl,
  env: extra = {},
  assignmentDatabaseUrl = (url) => url,
}) {
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
    JWT_ACCESS_TTL: BENCH_TOKEN_TTL,
    ...extra,
  };
  const processes = [];
  try {
    await startReady(
      'acl',
      'apps/acl/src/main.js',
      {
        ...common,
        PORT: String(ports.acl),
        DATABASE_URL: databases.acl.url,
        JWT_PRIVATE_KEY: keys.privateKeyPem,
        ADMIN_EMAIL: admin.email,
        ADMIN_PASSWORD: admin.password,
      },
      `${urls.acl}/acl/health/ready`,
      processes,
    );
    await startReady(
      'assignment',
      'apps/assignment/src/main.js',
      {
        ...common,
        PORT: String(ports.assignment),
        DATABASE_URL: assignmentDatabaseUrl(databases.assignment.url),
      },
      `${urls.assignment}/assignment/health/ready`,
      processes,
    );
    // Apps not started here point at assignment; the benchmarks never route to them.
    const gatewayEnv = {
      ...common,
      GATEWAY_PORT: String(ports.gateway),
      RATE_LIMIT_PER_MINUTE: '0',
      ...upstreamEnv(urls.assignment, { ACL_URL: urls.acl }),
    };
    await startReady(
      'gateway',
      'apps/gateway/src/main.js',
      gatewayEnv,
      `${urls.gateway}/health/live`,
      processes,
    );
  } catch (error) {
    for (const p of processes) await p.stop();
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
      for (const p of processes.reverse()) await p.stop();
      for (const db of Object.values(databases)) await db.drop();
    },
  };
}
