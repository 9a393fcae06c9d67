import { Injectable } from '@nestjs/common';

/** Work that must happen when a drain begins, e.g. closing websockets with 1001. */
export type DrainHook = () => void | Promise<void>;

/**
 * What an app does when SIGTERM begins its drain, before in-flight requests are awaited: a
 * feature holding long-lived connections (websockets) registers a hook that stops accepting new
 * ones and closes the open ones cleanly, since an upgraded connection never "finishes" by itself.
 */
@Injectable()
export class DrainHooks {
  private readonly hooks: DrainHook[] = [];
  private started = false;

  /** Registers `hook`; it runs once, when the drain begins. */
  onDrain(hook: DrainHook): void {
    this.hooks.push(hook);
  }

  /** True once the drain began (e.g. to refuse a websocket upgrade with 503). */
  get draining(): boolean {
    return this.started;
  }

  /** Runs every hook; a failing hook does not stop the others. */
  async run(): Promise<void> {
    this.started = true;
    await Promise.allSettled(this.hooks.map(async (hook) => hook()));
  }
}
