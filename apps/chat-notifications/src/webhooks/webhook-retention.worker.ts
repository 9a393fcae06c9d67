import { Injectable, Logger, type OnApplicationBootstrap, type OnApplicationShutdown } from '@nestjs/common';
import { InjectDataSource } from '@nestjs/typeorm';
import { InjectConfig, PeriodicJob } from '@media/platform';
import type { DataSource } from 'typeorm';
import type { ChatNotificationsConfig } from '../config';

const EVERY_MS = 10 * 60_000;
/** Events deleted per statement, so a pass never holds many locks at once. */
const BATCH = 1_000;

/**
 * Deletes received events older than WEBHOOK_RETENTION (their messages and attempts with them,
 * by cascade) once none of their deliveries is pending; replay reaches back that far. Replicas
 * may run it at the same time: a row another pass deleted is simply gone.
 */
@Injectable()
export class WebhookRetentionWorker implements OnApplicationBootstrap, OnApplicationShutdown {
  private readonly logger = new Logger('Webhooks');
  private readonly job = new PeriodicJob({
    name: 'WebhookRetention',
    every: EVERY_MS,
    firstAfter: 60_000,
    jitter: 0.2,
    run: () => this.prune(),
    onResult: (deleted: number) => {
      if (deleted > 0) this.logger.log({ deleted }, 'Old webhook events deleted');
    },
  });

  constructor(
    @InjectDataSource() private readonly dataSource: DataSource,
    @InjectConfig() private readonly config: ChatNotificationsConfig,
  ) {}

  onApplicationBootstrap(): void {
    this.job.start();
  }

  async onApplicationShutdown(): Promise<void> {
    await this.job.stop();
  }

  /** One pass: deletes in batches until nothing is left to delete; answers how many events went. */
  async prune(): Promise<number> {
    let total = 0;
    for (;;) {
      const [, deleted] = (await this.dataSource.query(
        `DELETE FROM webhook_events WHERE id IN (
           SELECT ev.id FROM webhook_events ev
            WHERE ev.occurred_at < clock_timestamp() - $1 * interval '1 millisecond'
              AND NOT EXISTS (SELECT 1 FROM webhook_messages m WHERE m.event_id = ev.id AND m.status = 'pending')
            ORDER BY ev.occurred_at LIMIT $2
         )`,
        [this.config.webhooks.retention, BATCH],
      )) as [unknown, number];
      total += deleted;
      if (deleted < BATCH) return total;
    }
  }
}
