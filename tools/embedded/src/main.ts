import { relative } from 'node:path';
import { loadRunnerConfig, RunnerConfigError, runnerEnv, type RunnerConfig } from './config';
import { Lifecycle, StopRequested } from './lifecycle';
import { keepAllocatorToRunner } from './processes';
import type { StartedSystem } from './runner';

/**
 * The embedded default (`npm start`): the whole system in one process, with its own PostgreSQL
 * and NATS when none is configured. The apps log JSON lines on stdout; the runner's own
 * messages are plain lines on stderr, so they stay readable between them.
 */
/** Two signals closer than this are one Ctrl-C (see onSignal). */
const SAME_PRESS_MS = 500;
/** How often the runner checks that its parent is still there. */
const ORPHAN_CHECK_MS = 500;

function say(line: string): void {
  process.stderr.write(`[embedded] ${line}\n`);
}

function display(path: string): string {
  const shown = relative(process.cwd(), path);
  return shown && !shown.startsWith('..') ? shown : path;
}

/** How a browser on this machine reaches `host`: `localhost` for loopback and every-interface binds. */
function reachable(host: string): string {
  if (['127.0.0.1', 'localhost', '0.0.0.0', '::', '::1'].includes(host)) return 'localhost';
  return host.includes(':') ? `[${host}]` : host;
}

function banner(system: StartedSystem, startedAt: number): string {
  const name = reachable(system.host);
  const url = `http://${name}:${system.gatewayPort}`;
  const { admin, file } = system.secrets;
  const lines = [
    `ready in ${((Date.now() - startedAt) / 1000).toFixed(1)} s`,
    `  URL:       ${url}`,
    `  API docs:  ${url}/docs`,
    `  Metrics:   http://${name}:${system.gatewayMetricsPort}/metrics`,
  ];
  if (system.host === '127.0.0.1' || system.host === 'localhost' || system.host === '::1') {
    lines.push(
      `  Listening on this machine only (set HOST=0.0.0.0 to serve the network, with ALLOWED_HOSTS).`,
    );
  } else {
    lines.push(
      `  WARNING:   listening on ${system.host} (HOST): anyone who reaches it may try these credentials.`,
    );
  }
  if (admin.passwordSource === 'generated') {
    lines.push(
      `  Admin:     ${admin.email}  password: ${admin.password}`,
      `  WARNING:   this generated password is shown only now; it is kept in ${display(file)} (mode 0600).`,
      `             Set ADMIN_EMAIL/ADMIN_PASSWORD before the first start to choose your own.`,
    );
  } else if (admin.passwordSource === 'stored') {
    lines.push(`  Admin:     ${admin.email}  (password in ${display(file)}, "adminPassword")`);
  } else {
    lines.push(`  Admin:     ${admin.email}  (password from ADMIN_PASSWORD)`);
  }
  lines.push(`  Database:  ${system.database}`, `  Bus:       ${system.bus}`, '  Ctrl-C stops everything.');
  return lines.join('\n');
}

async function main(): Promise<void> {
  const startedAt = Date.now();
  keepAllocatorToRunner();
  let config: RunnerConfig;
  try {
    config = loadRunnerConfig(runnerEnv(), process.cwd());
  } catch (error) {
    say(error instanceof RunnerConfigError ? error.message : `configuration: ${(error as Error).message}`);
    process.exit(1);
  }

  const lifecycle = new Lifecycle(say);
  let shutdown: Promise<void> | undefined;
  const stop = (exitCode: number, why: string): Promise<void> => {
    if (shutdown) return shutdown;
    say(why);
    shutdown = lifecycle.stopAll().then((clean) => {
      say(clean ? 'stopped' : 'stopped; some parts had to be cut short (see above)');
      process.exit(exitCode);
    });
    return shutdown;
  };

  let stopAskedAt = 0;
  const onSignal = (signal: NodeJS.Signals) => {
    // Ctrl-C reaches this process twice under `npm start`: from the terminal (the whole
    // foreground group) and forwarded by npm. One press is one stop; a later one forces.
    if (shutdown && Date.now() - stopAskedAt < SAME_PRESS_MS) return;
    if (shutdown) {
      say(`${signal} again: forcing exit`);
      lifecycle.forceAll();
      process.exit(130);
    }
    stopAskedAt = Date.now();
    void stop(0, `${signal}: stopping the gateway, the apps, NATS and PostgreSQL (again to force)`);
  };
  for (const signal of ['SIGINT', 'SIGTERM', 'SIGHUP'] as const) process.on(signal, onSignal);

  // Under a process manager or `npm start`, the parent may die without passing a signal on
  // (SIGKILL, a crash): re-parented, the runner stops everything rather than run on unowned.
  const parent = process.ppid;
  const orphanCheck = setInterval(() => {
    if (process.ppid !== parent) void stop(0, `parent process ${parent} exited: stopping everything`);
  }, ORPHAN_CHECK_MS);
  orphanCheck.unref();

  // All apps share this process: an error that would crash one app alone stops all of them,
  // in order, rather than leaving PostgreSQL and nats-server running without the runner.
  process.on(
    'uncaughtException',
    (error) => void stop(1, `uncaught error, stopping everything: ${error.stack ?? error.message}`),
  );
  process.on(
    'unhandledRejection',
    (reason) =>
      void stop(
        1,
        `unhandled rejection, stopping everything: ${reason instanceof Error ? (reason.stack ?? reason.message) : String(reason)}`,
      ),
  );

  try {
    // Loaded after the signal handlers are in place: loading nine apps takes a moment, and a
    // Ctrl-C meanwhile should still end cleanly.
    const { startSystem } = await import('./runner.js');
    // Let a signal that arrived while loading be handled before anything starts.
    await new Promise((resolve) => setImmediate(resolve));
    lifecycle.throwIfStopping();
    const system = await startSystem(config, lifecycle, {
      say,
      fatal: (message) => void stop(1, `${message}\nstopping everything`),
    });
    // Nine apps' heaps in one: once they are up, a fifth of growth between major GCs, not V8's
    // eager default (docs/benchmarks.md, "Where an app's memory goes"). Not before: loading and
    // booting them under that limit costs the start a major GC every few megabytes.
    const { HEAP_GROWTH_PERCENT, limitHeapGrowth } = await import('@media/core');
    limitHeapGrowth(HEAP_GROWTH_PERCENT.embedded);
    if (!lifecycle.stopping) say(banner(system, startedAt));
  } catch (error) {
    if (error instanceof StopRequested || lifecycle.stopping) return;
    await stop(1, `start-up failed: ${(error as Error).message}`);
  }
}

void main();
