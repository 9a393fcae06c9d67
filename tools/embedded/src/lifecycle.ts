import { within } from './processes';

export interface Resource {
  name: string;
  stop(): Promise<void>;
  /** For a second Ctrl-C: end now, synchronously (kill children); the process exits right after. */
  force?(): void;
  /** How long an orderly stop may take before the runner moves on. */
  timeoutMs?: number;
}

/** Thrown by startup steps once a stop was requested, so they go no further. */
export class StopRequested extends Error {
  constructor() {
    super('stop requested during start-up');
  }
}

/**
 * Everything the runner started, stopped in reverse order: gateway, apps, NATS, PostgreSQL,
 * then the data directory lock. A resource that finishes starting after a stop was requested
 * is stopped at once, so Ctrl-C during start-up leaves nothing behind.
 */
export class Lifecycle {
  private readonly resources: Resource[] = [];
  private stopped = false;

  constructor(private readonly say: (line: string) => void) {}

  get stopping(): boolean {
    return this.stopped;
  }

  throwIfStopping(): void {
    if (this.stopped) throw new StopRequested();
  }

  add(resource: Resource): void {
    if (this.stopped) {
      void this.stopOne(resource);
      return;
    }
    this.resources.push(resource);
  }

  private async stopOne(resource: Resource): Promise<boolean> {
    const timeoutMs = resource.timeoutMs ?? 15_000;
    try {
      if (await within(resource.stop(), timeoutMs)) return true;
      this.say(`${resource.name} did not stop within ${timeoutMs / 1000} s; moving on`);
    } catch (error) {
      this.say(`${resource.name} stopped with an error: ${(error as Error).message}`);
    }
    resource.force?.();
    return false;
  }

  /** Stops everything in reverse order; false when something had to be cut short. */
  async stopAll(): Promise<boolean> {
    this.stopped = true;
    let clean = true;
    while (this.resources.length > 0) {
      const resource = this.resources.pop() as Resource;
      clean = (await this.stopOne(resource)) && clean;
    }
    return clean;
  }

  forceAll(): void {
    this.stopped = true;
    for (const resource of this.resources.reverse()) {
      try {
        resource.force?.();
      } catch {
        /* exiting anyway */
      }
    }
    this.resources.length = 0;
  }
}
