import {
  Inject,
  Injectable,
  Logger,
  type OnApplicationBootstrap,
  type OnApplicationShutdown,
} from '@nestjs/common';
import { InjectDataSource } from '@nestjs/typeorm';
import { randomUUID } from 'node:crypto';
import { AclSubjects, idPages, type NotificationPriority } from '@media/contracts';
import {
  ClaimLoop,
  leaseFree,
  releaseLeases,
  RpcClient,
  type ClaimRound,
  type LeaseColumns,
} from '@media/messaging';
import { DrainHooks } from '@media/platform';
import { inIndexScansTransaction, InjectConfig } from '@media/kernel';
import type { DataSource } from 'typeorm';
import type { ChatNotificationsConfig } from '../config';
import { FramesService } from '../realtime/frames.service';
import { PushService } from '../realtime/push.service';
import { DigestService } from '../digest/digest.service';
import { MailerService } from '../mail/mailer.service';
import { Stopping } from '../mail/stopping';
import type { Notification } from './notification.entity';
import { toNotificationView } from './notifications.view';

/** An email's lease: the round that claimed it, until when. */
const LEASE: LeaseColumns = { table: 'notifications', owner: 'email_claim', until: 'email_lease_until' };
/** Websocket pushes taken per round. */
const BATCH = 100;
/** Emails claimed per round: sent one after another within one lease. */
const EMAIL_BATCH = 20;
/** Email attempts before an entry's email is marked failed. */
const MAX_ATTEMPTS = 5;
/** The wait before the next attempt of a failed email: doubling from this, at most RETRY_MAX_MS. */
const RETRY_BASE_MS = 2_000;
const RETRY_MAX_MS = 5 * 60_000;

/** A notification row under its entity's property names, for toNotificationView. */
const NOTIFICATION_COLUMNS = `id, recipient_id AS "recipientId", notification_type AS "notificationType",
  title, body, data, priority, websocket_status AS "websocketStatus", email_status AS "emailStatus",
  attempts, read_at AS "readAt", archived_at AS "archivedAt", created_at AS "createdAt"`;

/** Marks the oldest $1 pending pushes sent (their rows returned): a round's push claim. */
export const CLAIM_PUSHES = `UPDATE notifications SET websocket_status = 'sent'
  WHERE id IN (SELECT id FROM notifications WHERE websocket_status = 'pending'
                ORDER BY created_at LIMIT $1 FOR UPDATE SKIP LOCKED)
  RETURNING ${NOTIFICATION_COLUMNS}`;

/** The email of one inbox entry, as claimed. */
interface ClaimedEmail {
  id: string;
  recipient_id: string;
  title: string;
  body: string | null;
  priority: NotificationPriority;
  attempts: number;
}

/** The Message-ID of an entry's email: the same for every attempt, on every replica. */
export function emailMessageId(notificationId: string, domain: string): string {
  return `<${notificationId}.email@${domain}>`;
}

/**
 * Delivers pending channels of inbox entries after their transaction committed.
 *
 * Websocket pushes (to the recipient only, on any replica) are taken and marked in one statement,
 * then pushed. Emails never hold a transaction across SMTP: a round claims a batch with a lease
 * (`email_claim`, `email_lease_until`; a short transaction, committed at once, SKIP LOCKED so
 * replicas take different rows), sends each outside any transaction with a stable `Message-ID`, then
 * marks each sent only while its claim is still this round's. A failed send keeps the email
 * pending, its lease pushed to the next attempt (doubling), up to MAX_ATTEMPTS. A send starts
 * only while enough of the lease is left to finish it, so no other replica sends the same email
 * in normal operation; if one ever does (a process stalled past its lease), the repeat carries
 * the same Message-ID and the receiving side can recognise it.
 */
@Injectable()
export class DeliveryWorker implements OnApplicationBootstrap, OnApplicationShutdown {
  private readonly logger = new Logger('Delivery');
  private readonly stopping = new Stopping();
  private readonly loop = new ClaimLoop({
    name: 'Delivery',
    actor: 'chat-notifications:delivery',
    round: () => this.deliverRound(),
  });

  constructor(
    @InjectDataSource() private readonly dataSource: DataSource,
    @Inject(PushService) private readonly push: PushService,
    @Inject(FramesService) private readonly frames: FramesService,
    @Inject(MailerService) private readonly mailer: MailerService,
    @Inject(RpcClient) private readonly rpc: RpcClient,
    @Inject(DigestService) private readonly digests: DigestService,
    @InjectConfig() private readonly config: ChatNotificationsConfig,
    @Inject(DrainHooks) drain: DrainHooks,
  ) {
    drain.onDrain(() => this.stop());
  }

  onApplicationBootstrap(): void {
    this.loop.start();
  }

  async onApplicationShutdown(): Promise<void> {
    await this.stop();
  }

  /**
   * From SIGTERM on: no new round, nothing new claimed, claims not started given back at once.
   * A send under way has half of SHUTDOWN_TIMEOUT to finish; then its connection is cut and
   * what it held is given back too, so the process exits within SHUTDOWN_TIMEOUT however slow
   * the SMTP server, and the next worker (another replica, or this one restarted) sends it.
   */
  private async stop(): Promise<void> {
    this.stopping.begin(this.config.shutdownTimeout / 2, () => {
      this.logger.warn('SMTP sends still under way at the shutdown grace: cut, to be sent again');
      this.mailer.cut();
    });
    await this.loop.stop();
    this.stopping.end();
  }

  /**
   * Called when entries were written in a transaction that is about to commit: look soon, and
   * keep looking briefly (ClaimLoop's eager rounds) in case the commit lands after the first
   * look, rather than waiting a whole poll.
   */
  nudge(): void {
    this.loop.nudge();
  }

  /**
   * One round: pending pushes, then one claimed batch of emails, then the summaries that are due
   * (held emails at the end of quiet hours, daily digests: docs/api/contract.md §7.3).
   */
  async deliverRound(): Promise<ClaimRound> {
    const pushed = await this.pushBatch();
    const mailed = this.stopping.requested ? 0 : await this.emailBatch();
    const summarised = this.stopping.requested ? 0 : await this.digests.round(this.stopping);
    return { claimed: pushed + mailed + summarised, full: pushed === BATCH || mailed === EMAIL_BATCH };
  }

  /**
   * Marks pending pushes sent and records their frames in one transaction (a message in a room
   * of 1,000 makes 999), then pushes them in the order they were written. The claim reads the
   * pending rows through notifications_push_pending_idx walked in order, as the email claim does
   * through notifications_email_due_idx: each row marked leaves its pending version in that index
   * until vacuum, which a bitmap scan would visit at every round (INDEX_SCANS_ONLY; the statements
   * after it in this transaction look rows up by key).
   */
  private async pushBatch(): Promise<number> {
    const { taken, frames } = await inIndexScansTransaction(this.dataSource, async (manager) => {
      const [rows] = (await manager.query(CLAIM_PUSHES, [BATCH])) as [Notification[], number];
      if (rows.length === 0) return { taken: 0, frames: [] };
      rows.sort((a, b) => a.createdAt.getTime() - b.createdAt.getTime());
      // Pushes held by quiet hours are marked so and never pushed later (the inbox has them).
      const pushable = await this.digests.pushable(
        rows.map((row) => ({ id: row.id, recipient_id: row.recipientId, priority: row.priority, row })),
        manager,
      );
      const recorded = await this.frames.record(
        manager,
        pushable.map(({ row }) => ({
          userIds: [row.recipientId],
          event: 'notification' as const,
          data: toNotificationView(row),
        })),
      );
      return { taken: rows.length, frames: recorded };
    });
    this.push.publish(frames);
    return taken;
  }

  /** Claims emails with a lease (committed), sends them outside any transaction, marks each. */
  private async emailBatch(): Promise<number> {
    const claim = randomUUID();
    const leaseMs = this.config.mail.lease;
    const claimed = await inIndexScansTransaction(this.dataSource, async (manager) => {
      const [rows] = (await manager.query(
        `UPDATE notifications
            SET email_claim = $1, email_lease_until = clock_timestamp() + $2 * interval '1 millisecond'
          WHERE id IN (SELECT id FROM notifications
                        WHERE email_status = 'pending'
                          AND ${leaseFree(LEASE)}
                        ORDER BY created_at LIMIT $3 FOR UPDATE SKIP LOCKED)
          RETURNING id, recipient_id, title, body, priority, attempts`,
        [claim, leaseMs, EMAIL_BATCH],
      )) as [ClaimedEmail[], number];
      return rows;
    });
    if (claimed.length === 0) return 0;
    // Emails held by quiet hours or waiting for a digest are set aside, their claim released.
    const sendable = await this.digests.sendable(claimed, claim);
    if (sendable.length === 0) return claimed.length;
    // Time measured here, after the claim committed, errs on the short side of the lease.
    const leaseEnds = Date.now() + leaseMs;
    const addresses = await this.addresses(sendable, claim);
    if (!addresses) return claimed.length;
    // A send may take connection, greeting and reply timeouts in turn.
    const needed = Math.min(3 * this.config.mail.timeout, leaseMs / 2);
    for (const [index, email] of sendable.entries()) {
      if (this.stopping.requested || Date.now() + needed > leaseEnds) {
        await this.release(sendable.slice(index), claim);
        break;
      }
      const to = addresses.get(email.recipient_id);
      if (!to) {
        // An unknown recipient has no address: nothing to retry.
        await this.mark(email, claim, 'failed');
        continue;
      }
      try {
        await this.mailer.send({
          to,
          subject: email.title,
          text: email.body ?? email.title,
          messageId: emailMessageId(email.id, this.mailer.domain),
        });
      } catch (error) {
        if (this.stopping.cutting) {
          // Cut by the shutdown, not refused by the server: not an attempt.
          await this.release(sendable.slice(index), claim);
          break;
        }
        this.logger.warn({ err: String(error), notification_id: email.id }, 'Email not sent');
        await this.failedAttempt([email], claim);
        continue;
      }
      await this.mark(email, claim, 'sent');
    }
    return claimed.length;
  }

  /** The recipients' addresses, asked of acl; undefined (every email retried later) when it fails. */
  private async addresses(emails: ClaimedEmail[], claim: string): Promise<Map<string, string> | undefined> {
    try {
      const pages = await Promise.all(
        idPages(emails.map((e) => e.recipient_id)).map((ids) =>
          this.rpc.send(AclSubjects.usersGetMany, { ids }),
        ),
      );
      return new Map(pages.flat().map((p) => [p.id, p.email]));
    } catch (error) {
      this.logger.warn({ err: String(error) }, 'Recipient lookup failed; emails stay pending');
      await this.failedAttempt(emails, claim);
      return undefined;
    }
  }

  /** The email's final state, written only while the claim is still this round's. */
  private async mark(email: ClaimedEmail, claim: string, status: 'sent' | 'failed'): Promise<void> {
    const [, changed] = (await this.dataSource.query(
      `UPDATE notifications SET email_status = $3, email_claim = NULL, email_lease_until = NULL
        WHERE id = $1 AND email_claim = $2 AND email_status = 'pending'`,
      [email.id, claim, status],
    )) as [unknown, number];
    if (changed === 0) {
      this.logger.warn({ notification_id: email.id }, 'Email lease lost before it was marked');
    }
  }

  /** One more attempt counted; the next one after a doubling wait, or failed after MAX_ATTEMPTS. */
  private async failedAttempt(emails: ClaimedEmail[], claim: string): Promise<void> {
    await this.dataSource.query(
      `UPDATE notifications
          SET attempts = attempts + 1,
              email_status = CASE WHEN attempts + 1 >= $3 THEN 'failed' ELSE email_status END,
              email_claim = NULL,
              email_lease_until = clock_timestamp()
                + LEAST($4::bigint * power(2, attempts)::bigint, $5::bigint) * interval '1 millisecond'
        WHERE id = ANY($1::uuid[]) AND email_claim = $2 AND email_status = 'pending'`,
      [emails.map((e) => e.id), claim, MAX_ATTEMPTS, RETRY_BASE_MS, RETRY_MAX_MS],
    );
  }

  /** Gives claimed emails back at once (not started or cut: shutting down, or too little lease left). */
  private async release(emails: ClaimedEmail[], claim: string): Promise<void> {
    await releaseLeases(
      this.dataSource,
      LEASE,
      emails.map((e) => e.id),
      claim,
      `AND email_status = 'pending'`,
    );
  }
}
