import {
  Inject,
  Injectable,
  Logger,
  type OnApplicationBootstrap,
  type OnApplicationShutdown,
} from '@nestjs/common';
import { DataSource } from 'typeorm';
import type { PlatformConfig } from '@media/core';
import { InjectConfig } from '@media/kernel';
import { deleteExpiredKeys } from './idempotency-keys';

/** At most this long between two cleanups, however long IDEMPOTENCY_TTL is. */
const MAX_PERIOD_MS = 60 * 60_000;
const MIN_PERIOD_MS = 1_000;

/** How often expired keys are deleted: every TTL (an hour at most, a second at least). */
export function cleanupPeriod(ttl: number): number {
  return Math.min(MAX_PERIOD_MS, Math.max(MIN_PERIOD_MS, ttl));
}

/**
 * Deletes expired Idempotency-Key rows on a timer. Expired rows are already ignored by a claim;
 * this only keeps the table small. Self-contained so it can move onto a shared periodic-job
 * runner: the work is `deleteExpiredKeys`, the rest is the timer.
 */
@Injectable()
export class IdempotencyCleanup implements OnApplicationBootstrap, OnApplicationShutdown {
  private readonly logger = new Logger('Idempotency');
  private timer?: NodeJS.Timeout;
  private running?: Promise<unknown>;

  constructor(
    @Inject(DataSource) private readonly dataSource: DataSource,
    @InjectConfig() private readonly config: PlatformConfig,
  ) {}

  onApplicationBootstrap(): void {
    const { ttl, inFlightTimeout } = this.config.idempotency;
    this.timer = setInterval(() => {
      if (this.running) return;
      this.running = deleteExpiredKeys(this.dataSource, inFlightTimeout)
        .catch((error: unknown) => this.logger.warn({ err: error }, 'Expired idempotency keys not deleted'))
        .finally(() => (this.running = undefined));
    }, cleanupPeriod(ttl));
    this.timer.unref();
  }

  async onApplicationShutdown(): Promise<void> {
    clearInterval(this.timer);
    await this.running;
  }
}
