import { spawn, type ChildProcess } from 'node:child_process';
import { randomBytes } from 'node:crypto';
import { createWriteStream, mkdirSync, readFileSync, rmSync, writeFileSync } from 'node:fs';
import { dirname, join, resolve } from 'node:path';
import { APPS, envPrefix, SERVICE_NAMES, type AppName, type ServiceName } from '@media/contracts';
import { e2eStackFile, testEnv } from './env';
import { createDatabases, databaseUrl, dropDatabases, dropStaleDatabases } from './databases';
import { freePort } from './ports';
import { distEntry, stopChild, waitReady } from './processes';
import { call } from './http';
import { generateTestKeys, type TestKeys } from './tokens';

/** What a test file needs to reach the stack booted for this run. */
export interface StackInfo {
  gatewayUrl: string;
  urls: Record<AppName, string>;
  databases: Record<ServiceName, string>;
  env: Record<string, string>;
  keys: TestKeys;
  admin: { email: string; password: string };
  logDir: string;
}

const ROOT = resolve(__dirname, '../../..');
const DB_PREFIX = 'e2e_';
interface RunningStack {
  /** The run's name: its databases' prefix, its log and storage directories. */
  run: string;
  info: StackInfo;
  /** Where `startStack` described it for the test files. */
  file?: string;
  processes: Map<AppName, ChildProcess>;
  /** The PostgreSQL of its databases, when not this machine's. */
  server?: string;
}

let running: RunningStack | undefined;

function startProcess(app: AppName, env: Record<string, string>, logDir: string): ChildProcess {
  const log = createWriteStream(join(logDir, `${app}.log`));
  const child = spawn(process.execPath, ['--enable-source-maps', distEntry(app)], {
    env: { ...env, PATH: testEnv.path },
    stdio: ['ignore', 'pipe', 'pipe'],
  });
  child.stdout?.pipe(log);
  child.stderr?.pipe(log);
  return child;
}

/**
 * Boots every app as its own process from the build output, each on its own fresh database on
 * the real PostgreSQL, all on the real NATS (docs/api/contract.md §0 distributed mode). This is the stack of
 * the e2e run, found by test files through `stack()`.
 */
export async function startStack(
  apps: readonly ServiceName[] = SERVICE_NAMES,
  extraEnv: Record<string, string> = {},
): Promise<StackInfo> {
  running = await bootStack(apps, extraEnv);
  const file = join(ROOT, 'dist', 'e2e-stacks', `${running.run}.json`);
  mkdirSync(dirname(file), { recursive: true });
  writeFileSync(file, JSON.stringify(running.info));
  running.file = file;
  e2eStackFile.set(file);
  return running.info;
}

/** A second, private stack of some apps (with their own databases and variables) that a test starts and stops itself. */
export interface PrivateStack {
  info: StackInfo;
  /** The process of one app, e.g. to stop it and see what its callers answer. */
  process(app: AppName): ChildProcess;
  stop(): Promise<void>;
}

export async function startPrivateStack(
  apps: readonly ServiceName[],
  extraEnv: Record<string, string> = {},
  options: { databaseServer?: string } = {},
): Promise<PrivateStack> {
  const booted = await bootStack(apps, extraEnv, options.databaseServer);
  return {
    info: booted.info,
    process: (app) => booted.processes.get(app)!,
    stop: () => shutdown(booted),
  };
}

/** `server`: the PostgreSQL the apps' databases are made on (a test's own cluster), this machine's by default. */
async function bootStack(
  apps: readonly ServiceName[],
  extraEnv: Record<string, string>,
  server?: string,
): Promise<RunningStack> {
  const run = `${DB_PREFIX}${Date.now()}_${randomBytes(3).toString('hex')}`;
  if (!server) await dropStaleDatabases(DB_PREFIX);
  const databases = Object.fromEntries(
    apps.map((app) => [app, `${run}_${app.replace(/-/g, '_')}`]),
  ) as Record<ServiceName, string>;
  await createDatabases(Object.values(databases), server);

  const ports = {} as Record<AppName, number>;
  for (const app of ['gateway', ...apps] as AppName[]) ports[app] = await freePort();
  const urls = Object.fromEntries(
    Object.entries(ports).map(([app, port]) => [app, `http://127.0.0.1:${port}`]),
  ) as Record<AppName, string>;

  const keys = generateTestKeys();
  const admin = { email: 'admin@example.com', password: 'admin-password-1234' };
  const env: Record<string, string> = {
    NATS_URL: testEnv.natsUrl,
    CURSOR_SECRET: randomBytes(32).toString('hex'),
    // chat-notifications seals webhook endpoint secrets with it (without it, creating one is 503).
    WEBHOOK_SECRETS_KEY: randomBytes(32).toString('hex'),
    JWT_JWKS_URL: `${urls.acl}/acl/.well-known/jwks.json`,
    JWT_PRIVATE_KEY: keys.privateKeyPem,
    ADMIN_EMAIL: admin.email,
    ADMIN_PASSWORD: admin.password,
    // The shared stack serves every test file (the fuzz suite's thousands of requests included);
    // the limits themselves are tested on private gateways.
    RATE_LIMIT_PER_MINUTE: '1000000',
    HEALTH_RATE_LIMIT_PER_MINUTE: '1000000',
    // The apps' own bounds on bodies sent without a token (up to BODY_LIMIT) are tested through
    // it; the gateway's smaller PUBLIC_BODY_LIMIT in front of them is tested on private gateways.
    PUBLIC_BODY_LIMIT: '50mb',
    // One gateway process: GATEWAY_WORKERS (limits and metrics across workers, their drain) is
    // tested on private gateways, and the stack's two cores go to the test files.
    GATEWAY_WORKERS: '1',
    LOG_LEVEL: 'info',
    // Durable consumers of this run only: another run on the same NATS keeps its own.
    EVENTS_CONSUMER_PREFIX: run.replace(/_/g, '-'),
    // Nine apps and the private stacks some tests start share one PostgreSQL (max_connections 100),
    // with the other lanes of `npm test`: a pool keeps at most 5, and lets go of what it has not
    // used for 5 s (a clean-clone `.ci/run` reached 92 connections, nearly all of them idle).
    DB_POOL_MAX: '5',
    DB_POOL_IDLE_TIMEOUT: '5s',
    ...extraEnv,
  };
  for (const app of ['gateway', ...apps] as AppName[]) {
    env[`${envPrefix(app)}_PORT`] = String(ports[app]);
    env[`${envPrefix(app)}_URL`] = urls[app];
  }
  // The gateway's /metrics listener (GATEWAY_METRICS_PORT), free like the other ports.
  env.GATEWAY_METRICS_PORT ??= String(await freePort());
  const logDir = join(ROOT, 'dist', 'e2e-logs', run);
  mkdirSync(logDir, { recursive: true });
  // documents' stored files: the run's own directory, never the developer's `.data`.
  env.STORAGE_DIR ??= join(ROOT, 'dist', 'e2e-files', run);

  const processes = new Map<AppName, ChildProcess>();
  const dbUrls = {} as Record<ServiceName, string>;
  try {
    const order: ServiceName[] = apps.includes('acl')
      ? ['acl', ...apps.filter((a) => a !== 'acl')]
      : [...apps];
    for (const app of order) {
      dbUrls[app] = databaseUrl(databases[app], server);
      processes.set(app, startProcess(app, { ...env, DATABASE_URL: dbUrls[app] }, logDir));
    }
    processes.set('gateway', startProcess('gateway', env, logDir));
    await Promise.all(
      [...processes].map(([app, child]) => {
        const prefix = APPS[app].prefix;
        // The gateway is ready only when every app is; with some apps left out it is enough that it lives.
        const probe = app === 'gateway' && apps.length < SERVICE_NAMES.length ? 'live' : 'ready';
        return waitReady(
          `${urls[app]}${prefix ? `/${prefix}` : ''}/health/${probe}`,
          child,
          testEnv.bootTimeoutMs,
        );
      }),
    );
  } catch (error) {
    for (const child of processes.values()) child.kill('SIGKILL');
    await dropDatabases(Object.values(databases), server);
    throw new Error(`${(error as Error).message}; logs in ${logDir}`);
  }

  const info: StackInfo = { gatewayUrl: urls.gateway, urls, databases: dbUrls, env, keys, admin, logDir };
  return { run, info, processes, server };
}

/** Stops the apps (SIGTERM, so their graceful shutdown runs) and drops the run's databases. */
export async function stopStack(): Promise<void> {
  if (!running) return;
  const stack = running;
  running = undefined;
  await shutdown(stack);
  if (stack.file) rmSync(stack.file, { force: true });
}

async function shutdown({ info, processes, server }: RunningStack): Promise<void> {
  await Promise.all([...processes.values()].map((child) => stopChild(child)));
  const names = Object.values(info.databases).map((url) => new URL(url).pathname.slice(1));
  // A test's own cluster goes with its directory (and may be stopped by now).
  if (!server) await dropDatabases(names);
  if (info.env.STORAGE_DIR?.includes('e2e-files'))
    rmSync(info.env.STORAGE_DIR, { recursive: true, force: true });
}

/** The stack booted by the e2e global setup of this run. */
export function stack(): StackInfo {
  const file = e2eStackFile.get();
  if (!file)
    throw new Error(`no e2e stack: ${e2eStackFile.variable} is set by the e2e project's global setup`);
  return JSON.parse(readFileSync(file, 'utf8')) as StackInfo;
}

const adminLogins = new Map<string, Promise<string>>();

/**
 * The bootstrap administrator's access token on a stack (a real login through its gateway). The
 * login is shared by every caller: parallel logins of one account are answered 429 while one is
 * checked (docs/api/contract.md §1).
 */
export function adminToken(info: StackInfo = stack()): Promise<string> {
  let login = adminLogins.get(info.gatewayUrl);
  if (!login) {
    login = call(info.gatewayUrl, '/acl/api/v1/auth/token', { json: info.admin }).then((res) => {
      if (res.status !== 200) {
        adminLogins.delete(info.gatewayUrl);
        throw new Error(`admin login failed: ${res.status} ${res.text}`);
      }
      return (res.body as { access_token: string }).access_token;
    });
    adminLogins.set(info.gatewayUrl, login);
  }
  return login;
}
