import { Injectable } from '@nestjs/common';
import { InjectDataSource } from '@nestjs/typeorm';
import { InjectConfig } from '@media/kernel';
import type { DataSource } from 'typeorm';
import type { ChatNotificationsConfig } from '../config';

/** Events deleted per statement, so a pass never holds many locks at once. */
const BATCH = 1_000;

/**
 * Deletes received events older than WEBHOOK_RETENTION (their messages and attempts with them,
 * by cascade) once none of their deliveries is pending; replay reaches back that far. Replicas
 * may run it at the same time: a row another pass deleted is simply gone. Run every 10 minutes by
 * the WebhookRetention job (webhook-retention.worker.ts).
 */
@Injectable()
export class WebhookRetentionService {
  constructor(
    @InjectDataSource() private readonly dataSource: DataSource,
    @InjectConfig() private readonly config: ChatNotificationsConfig,
  ) {}

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
