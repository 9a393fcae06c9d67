import {
  Inject,
  Injectable,
  Logger,
  type OnApplicationBootstrap,
  type OnApplicationShutdown,
} from '@nestjs/common';
import { InjectDataSource } from '@nestjs/typeorm';
import { AclSubjects } from '@media/contracts';
import { RpcClient } from '@media/platform';
import type { DataSource } from 'typeorm';
import { PushService } from '../realtime/push.service';
import { notificationView } from './dto/notification.response';
import { MailerService } from './mailer.service';
import { Notification } from './notification.entity';

const POLL_MS = 1_000;
const NUDGE_MS = 30;
/** Empty rounds at a short interval after a nudge. */
const EAGER_ROUNDS = 5;
const BATCH = 100;
/** Email attempts before an entry's email is marked failed. */
const MAX_ATTEMPTS = 5;

/**
 * Delivers pending channels of inbox entries after their transaction committed: the websocket
 * push (to the recipient only, on any replica) and the email. Replicas share the work with
 * SKIP LOCKED; a failed email stays pending and is retried, up to MAX_ATTEMPTS.
 */
@Injectable()
export class DeliveryWorker implements OnApplicationBootstrap, OnApplicationShutdown {
  private readonly logger = new Logger('Delivery');
  private timer?: NodeJS.Timeout;
  private running?: Promise<void>;
  private due = Infinity;
  private stopped = false;
  private eager = 0;

  constructor(
    @InjectDataSource() private readonly dataSource: DataSource,
    @Inject(PushService) private readonly push: PushService,
    @Inject(MailerService) private readonly mailer: MailerService,
    @Inject(RpcClient) private readonly rpc: RpcClient,
  ) {}

  onApplicationBootstrap(): void {
    this.schedule(0);
  }

  async onApplicationShutdown(): Promise<void> {
    this.stopped = true;
    clearTimeout(this.timer);
    await this.running;
  }

  /**
   * Called when entries were written in a transaction that is about to commit: look soon, and
   * keep looking briefly (a few empty rounds at NUDGE_MS) in case the commit lands after the
   * first look, rather than waiting a whole POLL_MS.
   */
  nudge(): void {
    this.eager = EAGER_ROUNDS;
    this.schedule(NUDGE_MS);
  }

  private schedule(delay: number): void {
    if (this.stopped) return;
    const at = Date.now() + delay;
    if (this.timer && at >= this.due) return;
    clearTimeout(this.timer);
    this.due = at;
    this.timer = setTimeout(() => {
      this.timer = undefined;
      this.due = Infinity;
      this.running = (this.running ?? Promise.resolve())
        .then(() => this.deliverBatch())
        .then((count) => {
          if (count === BATCH) return this.schedule(0);
          if (count === 0 && this.eager > 0) {
            this.eager -= 1;
            return this.schedule(NUDGE_MS * 3);
          }
          this.schedule(POLL_MS);
        })
        .catch((error: unknown) => {
          this.logger.warn(
            { err: error instanceof Error ? error.message : String(error) },
            'Delivery failed',
          );
          this.schedule(POLL_MS * 2);
        });
    }, delay);
    this.timer.unref();
  }

  /** Delivers one batch of pending entries; returns how many it took. */
  async deliverBatch(): Promise<number> {
    return this.dataSource.transaction(async (manager) => {
      const rows = await manager
        .createQueryBuilder(Notification, 'n')
        .where(`(n.websocket_status = 'pending' OR n.email_status = 'pending')`)
        .orderBy('n.created_at', 'ASC')
        .limit(BATCH)
        .setLock('pessimistic_write')
        .setOnLocked('skip_locked')
        .getMany();
      if (rows.length === 0) return 0;

      for (const row of rows.filter((r) => r.websocketStatus === 'pending')) {
        row.websocketStatus = 'sent';
        this.push.push([row.recipientId], 'notification', notificationView(row));
      }

      const emails = rows.filter((r) => r.emailStatus === 'pending');
      if (emails.length > 0) await this.sendEmails(emails);

      for (const row of rows) {
        await manager.update(
          Notification,
          { id: row.id },
          { websocketStatus: row.websocketStatus, emailStatus: row.emailStatus, attempts: row.attempts },
        );
      }
      return rows.length;
    });
  }

  private async sendEmails(rows: Notification[]): Promise<void> {
    let addresses: Map<string, string>;
    try {
      const ids = [...new Set(rows.map((r) => r.recipientId))];
      const profiles = await this.rpc.send(AclSubjects.usersGetMany, { ids });
      addresses = new Map(profiles.map((p) => [p.id, p.email]));
    } catch (error) {
      this.logger.warn({ err: String(error) }, 'Recipient lookup failed; emails stay pending');
      for (const row of rows) this.failedAttempt(row);
      return;
    }
    for (const row of rows) {
      const to = addresses.get(row.recipientId);
      if (!to) {
        // An unknown recipient has no address: nothing to retry.
        row.emailStatus = 'failed';
        continue;
      }
      try {
        await this.mailer.send({ to, subject: row.title, text: row.body ?? row.title });
        row.emailStatus = 'sent';
      } catch (error) {
        this.logger.warn({ err: String(error), notification_id: row.id }, 'Email not sent');
        this.failedAttempt(row);
      }
    }
  }

  private failedAttempt(row: Notification): void {
    row.attempts += 1;
    if (row.attempts >= MAX_ATTEMPTS) row.emailStatus = 'failed';
  }
}
