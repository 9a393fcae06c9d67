/**
 * What the assignment benchmarks (and others) share: acl, one more app (assignment unless told)
 * and the gateway booted from dist as their own processes, each app on a fresh database of its own (never .data), on the NATS of
 * NATS_URL; a signing key given to acl so that tokens minted here verify everywhere.
 */
import { randomBytes } from 'node:crypto';
import { createRequire } from 'node:module';
import { BENCH_TOKEN_TTL, upstreamEnv } from './edge.mjs';
import { build, startProcess, waitReady } from './processes.mjs';
import { benchDatabase, dist, log } from './seed-users.mjs';

const require = createRequire(import.meta.url);
const { generateTestKeys, mintToken } = require(dist('libs/testing/src/tokens.js'));
const { freePort } = require(dist('libs/testing/src/ports.js'));

export { mintToken };

/** Starts `main` (a built file's path), adds it to `processes` and waits until `readyUrl` answers 2xx. */
async function startReady(name, main, env, readyUrl, processes, nodeArgs) {
  const { child, logFile, stop } = startProcess(`stack-${name}`, main, env, { nodeArgs });
  processes.push({ name, pid: child.pid, stop });
  await waitReady(readyUrl, { child, logFile, timeoutMs: 90_000 });
}

/** acl, assignment and the gateway (see startAppStack). */
export function startAssignmentStack(options) {
  return startAppStack({ ...options, app: 'assignment' });
}

/**
 * Boots the three: acl, `app` and the gateway. `beforeApps(databases)` runs after the databases exist and before any app
 * starts (e.g. to apply migrations and seed). Returns the URLs, the admin credentials, a
 * token minting helper and `stop()`, which also drops the databases (kept with KEEP_DB=1).
 * `appDatabaseUrl(url)` may rewrite the URL `app` connects with (e.g. through a statement
 * counter); `nodeArgs` by process name go before its entry (e.g. `{ acl: ['--cpu-prof'] }`).
 * `distDir` runs the three from another build's `dist` (e.g. the previous build's, built in a
 * scratch worktree, to measure beside it), its packages found in this checkout's node_modules.
 */
export async function startAppStack({
  prefix,
  natsUrl,
  app,
  env: extra = {},
  nodeArgs = {},
  appDatabaseUrl = (url) => url,
  distDir,
}) {
  const { entry: built, env: buildEnv } = build(distDir);
  const databases = {
    acl: benchDatabase(`${prefix}_acl`),
    [app]: benchDatabase(`${prefix}_${app.replace('-', '_')}`),
  };
  for (const db of Object.values(databases)) await db.create();
  const keys = generateTestKeys();
  const admin = { email: 'bench-admin@example.com', password: 'bench-admin-password' };
  const ports = { acl: await freePort(), [app]: await freePort(), gateway: await freePort() };
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
    ...buildEnv,
  };
  const processes = [];
  try {
    await startReady(
      'acl',
      built('apps/acl/src/main.js'),
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
      nodeArgs.acl,
    );
    await startReady(
      app,
      built(`apps/${app}/src/main.js`),
      { ...common, PORT: String(ports[app]), DATABASE_URL: appDatabaseUrl(databases[app].url) },
      `${urls[app]}/${app}/health/ready`,
      processes,
      nodeArgs[app],
    );
    // Apps not started here point at `app`; the benchmarks never route to them.
    const gatewayEnv = {
      ...common,
      GATEWAY_PORT: String(ports.gateway),
      GATEWAY_METRICS_PORT: '0',
      RATE_LIMIT_PER_MINUTE: '0',
      // Benchmarks probe health more often than a client may (120 a minute by default).
      HEALTH_RATE_LIMIT_PER_MINUTE: '1000000',
      // The gateway's processes (one per core by default), when a run sets them.
      ...(process.env.GATEWAY_WORKERS ? { GATEWAY_WORKERS: process.env.GATEWAY_WORKERS } : {}),
      ...(process.env.NODE_CLUSTER_SCHED_POLICY
        ? { NODE_CLUSTER_SCHED_POLICY: process.env.NODE_CLUSTER_SCHED_POLICY }
        : {}),
      ...upstreamEnv(urls[app], { ACL_URL: urls.acl }),
    };
    await startReady(
      'gateway',
      built('apps/gateway/src/main.js'),
      gatewayEnv,
      `${urls.gateway}/health/live`,
      processes,
      nodeArgs.gateway,
    );
  } catch (error) {
    for (const p of processes) await p.stop();
    for (const db of Object.values(databases)) await db.drop();
    throw error;
  }
  log(`acl ${urls.acl}, ${app} ${urls[app]}, gateway ${urls.gateway}`);
  return {
    urls,
    admin,
    cursorSecret: common.CURSOR_SECRET,
    databases,
    token: (claims) => mintToken(keys, { expiresIn: 3600, ...claims }),
    /** Process id of each app and of the gateway, by name. */
    pids: Object.fromEntries(processes.map((p) => [p.name, p.pid])),
    async stop() {
      for (const p of processes.reverse()) await p.stop();
      for (const db of Object.values(databases)) await db.drop();
    },
  };
}
