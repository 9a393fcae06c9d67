import { chmodSync, existsSync, mkdtempSync, readFileSync } from 'node:fs';
import { tmpdir } from 'node:os';
import { delimiter, join } from 'node:path';
import { APPS, type AppName } from '@media/contracts';
import { freePort } from '@media/testing';

/** Helpers of the tests that run the embedded default as a user does. */

/** The environment without anything that would point the runner at this machine's servers. */
export function cleanEnv(): Record<string, string> {
  const env: Record<string, string> = {};
  const owned =
    /^(DATABASE_URL|NATS_URL|CURSOR_SECRET|ADMIN_EMAIL|ADMIN_PASSWORD|JWT_.*|PORT|DATA_DIR|[A-Z_]+_(PORT|URL))$/;
  for (const [name, value] of Object.entries(process.env))
    if (value !== undefined && !owned.test(name)) env[name] = value;
  return env;
}

/** PATH without any directory holding a nats-server, so the runner falls back to the in-process bus. */
export function pathWithoutNats(path: string): string {
  return path
    .split(delimiter)
    .filter((dir) => dir && !existsSync(join(dir, 'nats-server')))
    .join(delimiter);
}

/**
 * One port per app, all different: reserved like every test's ports, since the OS may hand out a
 * port it just handed out again once nothing listens on it (a run failed on two apps given one).
 */
export async function freePorts(): Promise<Record<AppName, number>> {
  const ports = {} as Record<AppName, number>;
  for (const app of Object.keys(APPS) as AppName[]) ports[app] = await freePort();
  return ports;
}

/** A temp directory the `postgres` user can enter (mkdtemp makes 0700 ones) when run as root. */
export function makeWorkDir(): string {
  const work = mkdtempSync(join(tmpdir(), 'embedded-e2e-'));
  chmodSync(work, 0o711);
  return work;
}

/** Stops a PostgreSQL a failed test left behind, so it does not outlive the run. */
export function stopLeftoverPostgres(dataDir: string, cluster = join(dataDir, 'postgres')): void {
  const pidFile = join(cluster, 'postmaster.pid');
  if (!existsSync(pidFile)) return;
  const pid = Number(readFileSync(pidFile, 'utf8').split('\n')[0]);
  try {
    process.kill(pid, 'SIGQUIT');
  } catch {
    /* already gone */
  }
}
