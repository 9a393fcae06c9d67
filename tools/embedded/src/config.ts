import { isAbsolute, resolve } from 'node:path';
import { APPS, envPrefix, type AppName } from '@media/contracts';

/** What the embedded default reads from the environment (docs/api/contract.md §6), validated once. */
export interface RunnerConfig {
  /** Absolute path of the data directory (`DATA_DIR`, default `./.data`). */
  dataDir: string;
  /** An existing PostgreSQL server to use instead of the embedded one. */
  databaseUrl?: string;
  /** An existing NATS (`nats://...`) or `inproc`, instead of starting nats-server. */
  natsUrl?: string;
  cursorSecret?: string;
  adminEmail?: string;
  adminPassword?: string;
  /** Set only when the user gives it; otherwise it follows acl's port. */
  jwksUrl?: string;
  /** HTTP port of every app, `<APP>_PORT` overriding docs/api/contract.md §0's defaults. */
  ports: Record<AppName, number>;
  /** The gateway's `/metrics` port (`GATEWAY_METRICS_PORT`, default 9464; 0: one the system picks). */
  gatewayMetricsPort: number;
  /**
   * Where the gateway's listeners bind (`HOST`): `127.0.0.1` unless told otherwise, since this
   * mode prints an administrator password and the demo users' passwords are published. The apps,
   * PostgreSQL and NATS stay on 127.0.0.1 whatever it says: the gateway is the way in.
   */
  host: string;
  /** `PATH`, searched for a nats-server binary. */
  path: string;
  /** Everything else, handed on to the apps (LOG_LEVEL, BODY_LIMIT, RATE_LIMIT_PER_MINUTE, ...). */
  passThrough: Record<string, string>;
}

/**
 * The process environment. Read here rather than through @media/platform's processEnv so
 * main.ts can install its signal handlers before the platform and the nine apps are loaded.
 */
export function runnerEnv(): Record<string, string | undefined> {
  return { ...process.env };
}

/** A bad variable, reported as one line naming it (the same shape as the apps' ConfigError). */
export class RunnerConfigError extends Error {
  constructor(
    readonly variable: string,
    problem: string,
  ) {
    super(`Invalid configuration: ${variable} ${problem}`);
  }
}

/** Variables the runner computes per app itself; a value from the environment would be wrong there. */
const RUNNER_OWNED = new Set([
  'PORT',
  'DATABASE_URL',
  'NATS_URL',
  'CURSOR_SECRET',
  'ADMIN_EMAIL',
  'ADMIN_PASSWORD',
  'JWT_JWKS_URL',
  'DATA_DIR',
  'HOST',
  'GATEWAY_METRICS_PORT',
]);

/** `<APP>_PORT` and `<APP>_URL`: the runner sets them for every app from `ports`. */
const PER_APP = new Set(
  (Object.keys(APPS) as AppName[]).flatMap((app) => [`${envPrefix(app)}_PORT`, `${envPrefix(app)}_URL`]),
);

function text(env: Record<string, string | undefined>, name: string): string | undefined {
  const value = env[name]?.trim();
  return value ? value : undefined;
}

function port(env: Record<string, string | undefined>, name: string, fallback: number): number {
  const value = text(env, name);
  if (value === undefined) return fallback;
  if (!/^\d+$/.test(value) || Number(value) < 1 || Number(value) > 65535) {
    throw new RunnerConfigError(name, 'must be a port between 1 and 65535');
  }
  return Number(value);
}

/**
 * Reads the runner's configuration. `PORT` is taken as the gateway's port when `GATEWAY_PORT`
 * is unset: in the embedded default the gateway is the one public entry, and hosts that set
 * `PORT` mean "listen here".
 */
export function loadRunnerConfig(env: Record<string, string | undefined>, cwd: string): RunnerConfig {
  const dataDirText = text(env, 'DATA_DIR') ?? './.data';
  const dataDir = isAbsolute(dataDirText) ? dataDirText : resolve(cwd, dataDirText);

  const ports = {} as Record<AppName, number>;
  for (const app of Object.keys(APPS) as AppName[]) {
    const variable = `${envPrefix(app)}_PORT`;
    const fallback = app === 'gateway' ? port(env, 'PORT', APPS.gateway.port) : APPS[app].port;
    ports[app] = port(env, variable, fallback);
  }
  const seen = new Map<number, AppName>();
  const variable = (app: AppName) => `${envPrefix(app)}_PORT`;
  for (const [app, value] of Object.entries(ports) as [AppName, number][]) {
    const other = seen.get(value);
    if (other) {
      // Blame the variable the user set, not the default it collides with.
      const [blamed, kept] = text(env, variable(app)) ? [app, other] : [other, app];
      throw new RunnerConfigError(variable(blamed), `must differ from ${kept}'s port ${value}`);
    }
    seen.set(value, app);
  }

  const metricsText = text(env, 'GATEWAY_METRICS_PORT') ?? '9464';
  if (!/^\d+$/.test(metricsText) || Number(metricsText) > 65535) {
    throw new RunnerConfigError('GATEWAY_METRICS_PORT', 'must be a port between 0 and 65535');
  }
  const gatewayMetricsPort = Number(metricsText);
  const taken = seen.get(gatewayMetricsPort);
  if (taken)
    throw new RunnerConfigError(
      'GATEWAY_METRICS_PORT',
      `must differ from ${taken}'s port ${gatewayMetricsPort}`,
    );
  const host = text(env, 'HOST') ?? '127.0.0.1';
  if (!/^[A-Za-z0-9.:-]+$/.test(host)) {
    throw new RunnerConfigError('HOST', 'must be an address or host name such as 127.0.0.1 or 0.0.0.0');
  }

  const databaseUrl = text(env, 'DATABASE_URL');
  if (databaseUrl !== undefined && !/^postgres(ql)?:\/\/\S+$/.test(databaseUrl)) {
    throw new RunnerConfigError('DATABASE_URL', 'must be a postgres:// URL');
  }
  const natsUrl = text(env, 'NATS_URL');
  if (natsUrl !== undefined && !/^(inproc|nats:\/\/\S+)$/.test(natsUrl)) {
    throw new RunnerConfigError('NATS_URL', 'must be nats://host:port (comma-separated) or inproc');
  }
  const cursorSecret = text(env, 'CURSOR_SECRET');
  if (cursorSecret !== undefined && cursorSecret.length < 32) {
    throw new RunnerConfigError('CURSOR_SECRET', 'must be at least 32 characters');
  }
  const adminEmail = text(env, 'ADMIN_EMAIL');
  if (adminEmail !== undefined && !/^[^@\s]+@[^@\s]+$/.test(adminEmail)) {
    throw new RunnerConfigError('ADMIN_EMAIL', 'must be an email address');
  }

  const passThrough: Record<string, string> = {};
  for (const [name, value] of Object.entries(env)) {
    if (value === undefined || RUNNER_OWNED.has(name) || PER_APP.has(name)) continue;
    passThrough[name] = value;
  }

  return {
    dataDir,
    databaseUrl,
    natsUrl,
    cursorSecret,
    adminEmail,
    adminPassword: text(env, 'ADMIN_PASSWORD'),
    jwksUrl: text(env, 'JWT_JWKS_URL'),
    ports,
    gatewayMetricsPort,
    host,
    path: env.PATH ?? '',
    passThrough,
  };
}
