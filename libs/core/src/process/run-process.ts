import { ConfigError } from '../config/env';
import { HEAP_GROWTH_PERCENT, limitHeapGrowth } from './heap';

/** A long-running process (an app or the gateway): how it starts and how it stops. */
export interface ProcessSpec<T> {
  /** Named in the one-line message of a failed start. */
  name: string;
  /** Reads config and starts; a ConfigError is printed alone, any other error in one line. */
  start(): Promise<T>;
  /** Graceful stop on SIGTERM/SIGINT; it should be bounded by `shutdownTimeout` itself. */
  stop(running: T, signal: NodeJS.Signals): Promise<void>;
  /** Milliseconds: past this plus 5 s a hung stop is cut with exit code 1. */
  shutdownTimeout(running: T): number;
}

/**
 * The process shell shared by every app's `main.ts` and the gateway's (Nest-free): start, a
 * clean exit on SIGTERM/SIGINT (0, or 1 if the stop failed or hung), and fatal start errors as
 * one line on stderr with exit code 1. Once started, one app to a process, its heap grows by half
 * at most between major GCs (see limitHeapGrowth); the start itself, which allocates most of what
 * the process will ever hold, runs with V8's own growth, as a tighter one costs it major GCs.
 */
export async function runProcess<T>(spec: ProcessSpec<T>): Promise<void> {
  let running: T;
  try {
    running = await spec.start();
  } catch (error) {
    const message =
      error instanceof ConfigError
        ? error.message
        : // e.g. the port is taken: one line, not a stack trace, like a configuration error.
          `${spec.name} failed to start: ${error instanceof Error ? error.message : String(error)}`;
    process.stderr.write(`${message}\n`);
    process.exit(1);
  }
  limitHeapGrowth(HEAP_GROWTH_PERCENT.app);
  const timeout = spec.shutdownTimeout(running);
  let stopping = false;
  const stop = (signal: NodeJS.Signals) => {
    if (stopping) return;
    stopping = true;
    // stop() is bounded by SHUTDOWN_TIMEOUT already; this only guards against a hang past it.
    const force = setTimeout(() => process.exit(1), timeout + 5_000);
    force.unref();
    spec.stop(running, signal).then(
      () => process.exit(0),
      () => process.exit(1),
    );
  };
  process.on('SIGTERM', () => stop('SIGTERM'));
  process.on('SIGINT', () => stop('SIGINT'));
}
