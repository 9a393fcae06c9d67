import {
  Inject,
  Injectable,
  Logger,
  type OnApplicationBootstrap,
  type OnApplicationShutdown,
} from '@nestjs/common';
import { InjectDataSource } from '@nestjs/typeorm';
import type { DataSource } from 'typeorm';
import type { PlatformConfig } from '@media/core';
import { InjectConfig, APP_NAME } from '@media/kernel';
import { PeriodicJob } from '@media/messaging';

const EVERY_MS = 10 * 60_000;
const BATCH = 10_000;

/**
 * AUDIT_RETENTION (default: keep for ever): deletes the entries up to the newest checkpoint older
 * than the retention, and the checkpoints before it. That checkpoint is kept, so the chain still
 * verifies from it (walk from its seq + 1 with its hash as prev_hash, its signature vouching for
 * it). The append-only guard lets through only that prefix, and only in a transaction that sets
 * `audit.retention`. One replica at a time, every 10 minutes, a batch per transaction.
 */
@Injectable()
export class AuditRetention implements OnApplicationBootstrap, OnApplicationShutdown {
  private readonly logger = new Logger('AuditRetention');
  private readonly job: PeriodicJob<number>;

  constructor(
    @InjectDataSource() private readonly dataSource: DataSource,
    @Inject(APP_NAME) app: string,
    @InjectConfig() private readonly config: PlatformConfig,
  ) {
    this.job = new PeriodicJob({
      name: 'AuditRetention',
      every: EVERY_MS,
      firstAfter: 10_000,
      jitter: 0.1,
      exclusive: { dataSource, lock: `audit-retention:${app}` },
      run: () => this.prune(),
      onResult: (deleted) => {
        if (deleted > 0) this.logger.log({ deleted }, 'Pruned audit entries past AUDIT_RETENTION');
      },
    });
  }

  onApplicationBootstrap(): void {
    if (this.config.audit.retention !== undefined) this.job.start();
  }

  async onApplicationShutdown(): Promise<void> {
    await this.job.stop();
  }

  /** One pruning pass now (entries and checkpoints deleted); 0 when AUDIT_RETENTION is unset. */
  async prune(): Promise<number> {
    const retention = this.config.audit.retention;
    if (retention === undefined) return 0;
    const keep = `${retention} milliseconds`;
    let total = 0;
    for (;;) {
      const deleted = await this.dataSource.transaction(async (manager) => {
        await manager.query(`SELECT set_config('audit.retention', $1, true)`, [keep]);
        const [kept]: { seq: string }[] = await manager.query(
          `SELECT seq FROM audit_checkpoints WHERE at < now() - $1::interval ORDER BY seq DESC LIMIT 1`,
          [keep],
        );
        if (!kept) return 0;
        const [, entries]: [unknown, number] = await manager.query(
          `DELETE FROM audit_entries WHERE id IN (
             SELECT id FROM audit_entries WHERE seq <= $1 ORDER BY seq LIMIT $2)`,
          [kept.seq, BATCH],
        );
        const [, checkpoints]: [unknown, number] = await manager.query(
          `DELETE FROM audit_checkpoints WHERE seq < $1`,
          [kept.seq],
        );
        return entries + checkpoints;
      });
      total += deleted;
      if (deleted < BATCH) return total;
    }
  }
}
