import {
  Inject,
  Injectable,
  Logger,
  type OnApplicationBootstrap,
  type OnApplicationShutdown,
} from '@nestjs/common';
import { InjectDataSource } from '@nestjs/typeorm';
import { InjectConfig } from '@media/kernel';
import { PeriodicJob } from '@media/messaging';
import type { DataSource } from 'typeorm';
import type { ChatNotificationsConfig } from '../config';
import { ClockService } from '../quiet-hours/clock.service';

const RETENTION_LOCK = 'chat-notifications:notification-retention';
/** Rows per DELETE: short transactions, no long lock on the inbox. */
const BATCH = 5_000;

/**
 * Deletes inbox entries past their retention (docs/operations/capacity.md): read or archived ones
 * after NOTIFICATION_RETENTION, any after NOTIFICATION_UNREAD_RETENTION; never one whose email is
 * still to go out (pending, held for quiet hours, waiting for a digest). One replica at a time.
 */
@Injectable()
export class RetentionService implements OnApplicationBootstrap, OnApplicationShutdown {
  private readonly logger = new Logger('NotificationRetention');
  private readonly job: PeriodicJob<number>;

  constructor(
    @InjectDataSource() private readonly dataSource: DataSource,
    @InjectConfig() private readonly config: ChatNotificationsConfig,
    @Inject(ClockService) private readonly clock: ClockService,
  ) {
    this.job = new PeriodicJob({
      name: 'NotificationRetention',
      every: config.retention.interval,
      firstAfter: 60_000,
      jitter: 0.1,
      exclusive: { dataSource, lock: RETENTION_LOCK },
      run: () => this.prune(),
      onResult: (deleted) => {
        if (deleted > 0) this.logger.log({ deleted }, 'Deleted inbox entries past their retention');
      },
    });
  }

  onApplicationBootstrap(): void {
    this.job.start();
  }

  async onApplicationShutdown(): Promise<void> {
    await this.job.stop();
  }

  /** One pass now (tests); the number of entries deleted, undefined when another replica runs it. */
  runOnce(): Promise<number | undefined> {
    return this.job.runOnce();
  }

  private async prune(): Promise<number> {
    const now = this.clock.now().getTime();
    const { read, unread } = this.config.retention;
    const readBefore = new Date(now - read);
    const anyBefore = new Date(now - unread);
    let deleted = 0;
    for (;;) {
      const [{ n }] = (await this.dataSource.query(
        `WITH gone AS (
           DELETE FROM notifications WHERE id IN (
             SELECT id FROM notifications
              WHERE created_at < $1
                AND email_status NOT IN ('pending', 'held', 'digest')
                AND (created_at < $2 OR read_at IS NOT NULL OR archived_at IS NOT NULL)
              LIMIT $3)
           RETURNING 1)
         SELECT count(*)::int AS n FROM gone`,
        [readBefore, anyBefore, BATCH],
      )) as { n: number }[];
      deleted += n;
      if (n < BATCH) return deleted;
    }
  }
}
