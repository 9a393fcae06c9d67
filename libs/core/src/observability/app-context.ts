import { AsyncLocalStorage } from 'node:async_hooks';
import type { Logger } from 'pino';

/**
 * Which app the current work belongs to, and the logger it logs through (the request's, bound
 * to its id, inside a request). The embedded default runs every app and the gateway in one
 * process, so this is carried by the async context rather than by a process-wide singleton:
 * everything an app's boot starts (its server, timers, connections) descends from its context.
 */
export interface AppContext {
  app: string;
  logger?: Logger;
}

const current = new AsyncLocalStorage<AppContext>();

/** Runs `work` as `context` (an app's boot, one of its requests). */
export function runInApp<T>(context: AppContext, work: () => T): T {
  return current.run(context, work);
}

/** The app of the current work, if any. */
export function currentApp(): AppContext | undefined {
  return current.getStore();
}
