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
/** Entries pruned per transaction, about: a step ends at a checkpoint. */
const BATCH = 10_000;

/**
 * AUDIT_RETENTION (default: keep for ever): deletes the entries up to the newest checkpoint older
 * than the retention, and the checkpoints before it. That checkpoint is kept, so the chain still
 * verifies from it (walk from its seq + 1 with its hash as prev_hash, its signature vouching for
 * it). The append-only guards let through only a prefix ending at such a checkpoint, and only in
 * a transaction that sets `audit.retention`. One replica at a time, every 10 minutes, a step per
 * transaction.
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

  /**
   * One pruning pass now (entries and checkpoints deleted); 0 when AUDIT_RETENTION is unset. A
   * transaction per step, each step a prefix ending at a checkpoint older than the retention (the
   * newest within BATCH entries of the oldest entry, or the first one after it when none is that
   * close), so that between two steps, too, the chain verifies from the checkpoint kept.
   */
  async prune(): Promise<number> {
    const retention = this.config.audit.retention;
    if (retention === undefined) return 0;
    const keep = `${retention} milliseconds`;
    let total = 0;
    for (;;) {
      const step = await this.dataSource.transaction(async (manager) => {
        await manager.query(`SELECT set_config('audit.retention', $1, true)`, [keep]);
        const [step]: { kept: string; upto: string }[] = await manager.query(
          `SELECT kept.seq AS kept,
                  COALESCE(
                    (SELECT c.seq FROM audit_checkpoints c
                      WHERE c.seq BETWEEN oldest.seq AND LEAST(kept.seq, oldest.seq + $2 - 1)
                        AND c.at < now() - $1::interval
                      ORDER BY c.seq DESC LIMIT 1),
                    (SELECT c.seq FROM audit_checkpoints c
                      WHERE c.seq BETWEEN oldest.seq AND kept.seq AND c.at < now() - $1::interval
                      ORDER BY c.seq LIMIT 1),
                    kept.seq) AS upto
             FROM (SELECT seq FROM audit_checkpoints WHERE at < now() - $1::interval
                    ORDER BY seq DESC LIMIT 1) AS kept,
                  (SELECT min(seq) AS seq FROM audit_entries WHERE seq IS NOT NULL) AS oldest`,
          [keep, BATCH],
        );
        if (!step) return { deleted: 0, done: true };
        const { kept, upto } = step;
        const [, entries]: [unknown, number] = await manager.query(
          `DELETE FROM audit_entries WHERE seq <= $1`,
          [upto],
        );
        const [, checkpoints]: [unknown, number] = await manager.query(
          `DELETE FROM audit_checkpoints WHERE seq < $1`,
          [upto],
        );
        return { deleted: entries + checkpoints, done: upto === kept };
      });
      total += step.deleted;
      if (step.done) return total;
    }
  }
}
