import { Inject, Injectable, Logger } from '@nestjs/common';
import { InjectDataSource } from '@nestjs/typeorm';
import { randomUUID } from 'node:crypto';
import { AclSubjects, type NotificationPriority } from '@media/contracts';
import { InjectConfig } from '@media/kernel';
import { RpcClient } from '@media/messaging';
import type { DataSource, EntityManager } from 'typeorm';
import type { ChatNotificationsConfig } from '../config';
import { MailerService } from '../mail/mailer.service';
import type { Stopping } from '../mail/stopping';
import { ClockService } from '../quiet-hours/clock.service';
import { localTime, nextDigestAt, quietPeriodAt, type QuietHours } from '../quiet-hours/quiet-hours';
import type { NotificationSettings } from '../settings/notification-settings.entity';
import { SettingsService } from '../settings/settings.service';
import { linkTarget } from './link-target';

/** Users whose held emails or digest are handled per round. */
const USERS_PER_ROUND = 20;
/** Attempts of a summary email before its entries are marked failed. */
const MAX_ATTEMPTS = 5;
const RETRY_BASE_MS = 2_000;
const RETRY_MAX_MS = 5 * 60_000;

/** What a delivery decision needs of an entry. */
export interface Deliverable {
  id: string;
  recipient_id: string;
  priority: NotificationPriority;
}

/** An entry as a summary email lists it. */
interface Listed {
  id: string;
  notification_type: string;
  title: string;
  body: string | null;
  data: Record<string, unknown>;
  priority: NotificationPriority;
  created_at: Date;
  attempts: number;
}

const LISTED = `id, notification_type, title, body, data, priority, created_at, attempts`;

function quietOf(s: NotificationSettings | undefined): QuietHours | null {
  return s?.quietStart && s.quietEnd ? { start: s.quietStart, end: s.quietEnd } : null;
}

/**
 * Quiet hours and daily digests (docs/api/contract.md §7.3), for the delivery worker: which
 * pushes and emails are held (decided per entry and channel when the worker takes them; URGENT
 * never), and, each round, the summary emails that are due: the held emails of a user whose
 * quiet hours ended, as one email, and the daily digests. A user's digest is claimed on the
 * user's settings row with a lease, so exactly one replica sends it, and `next_digest_at` moves
 * to the next day in the same statement that marks its entries sent.
 */
@Injectable()
export class DigestService {
  private readonly logger = new Logger('Digest');

  constructor(
    @InjectDataSource() private readonly dataSource: DataSource,
    @Inject(MailerService) private readonly mailer: MailerService,
    @Inject(RpcClient) private readonly rpc: RpcClient,
    @Inject(ClockService) private readonly clock: ClockService,
    @Inject(SettingsService) private readonly settings: SettingsService,
    @InjectConfig() private readonly config: ChatNotificationsConfig,
  ) {}

  /** The entries whose push goes out now; the others are marked `held` (never pushed later), in the caller's transaction. */
  async pushable<T extends Deliverable>(entries: T[], manager: EntityManager): Promise<T[]> {
    const settings = await this.settingsOf(entries);
    const now = this.clock.now();
    const held = entries.filter((e) => this.quietFor(e, settings, now));
    if (held.length > 0) {
      await manager.query(`UPDATE notifications SET websocket_status = 'held' WHERE id = ANY($1::uuid[])`, [
        held.map((e) => e.id),
      ]);
    }
    return entries.filter((e) => !held.includes(e));
  }

  /**
   * Of claimed emails, the ones to send one by one now; the others are set aside (claim
   * released): `digest` for a user with a daily digest, `held` until the end of quiet hours.
   */
  async sendable<T extends Deliverable>(emails: T[], claim: string): Promise<T[]> {
    const settings = await this.settingsOf(emails);
    const now = this.clock.now();
    const digest: string[] = [];
    const held = new Map<string, string[]>();
    const send: T[] = [];
    for (const email of emails) {
      const s = settings.get(email.recipient_id);
      if (email.priority === 'URGENT' || !s) send.push(email);
      else if (s.emailDigest === 'daily') digest.push(email.id);
      else {
        const period = quietPeriodAt(now, s.timezone, quietOf(s));
        if (!period) send.push(email);
        else {
          const until = period.end.toISOString();
          held.set(until, [...(held.get(until) ?? []), email.id]);
        }
      }
    }
    if (digest.length > 0) await this.setAside(digest, claim, 'digest', null);
    for (const [until, ids] of held) await this.setAside(ids, claim, 'held', until);
    return send;
  }

  /**
   * One round of summaries: released held emails, then due digests. Returns the users handled.
   * Once `stopping` is requested it takes no further user and gives back what it claimed.
   */
  async round(stopping: Pick<Stopping, 'requested' | 'cutting'>): Promise<number> {
    const held = await this.releaseHeld(stopping);
    return held + (stopping.requested ? 0 : await this.sendDigests(stopping));
  }

  private async releaseHeld(stopping: Pick<Stopping, 'requested' | 'cutting'>): Promise<number> {
    const now = this.clock.now();
    const users: { recipient_id: string }[] = await this.dataSource.query(
      `SELECT DISTINCT recipient_id FROM notifications
        WHERE email_status = 'held' AND held_until <= $1
          AND (email_lease_until IS NULL OR email_lease_until <= clock_timestamp())
        LIMIT $2`,
      [now, USERS_PER_ROUND],
    );
    for (const { recipient_id: user } of users) {
      if (stopping.requested) break;
      const claim = randomUUID();
      // Row locks make a second replica's claim of the same rows find them claimed.
      const [rows] = (await this.dataSource.query(
        `UPDATE notifications
            SET email_claim = $2, email_lease_until = clock_timestamp() + $4 * interval '1 millisecond'
          WHERE recipient_id = $1 AND email_status = 'held' AND held_until <= $3
            AND (email_lease_until IS NULL OR email_lease_until <= clock_timestamp())
          RETURNING ${LISTED}`,
        [user, claim, now, this.config.mail.lease],
      )) as [Listed[], number];
      if (rows.length === 0) continue;
      const ids = rows.map((r) => r.id);
      const s = (await this.settingsOf([{ recipient_id: user }])).get(user);
      // Settings may have changed since the entries were held.
      if (s?.emailDigest === 'daily') {
        await this.setAside(ids, claim, 'digest', null);
        continue;
      }
      const period = s ? quietPeriodAt(now, s.timezone, quietOf(s)) : null;
      if (period) {
        await this.setAside(ids, claim, 'held', period.end.toISOString());
        continue;
      }
      const sent = await this.sendSummary(user, rows, claim, stopping, {
        subject: `While your notifications were quiet: ${rows.length}`,
        intro: 'These notifications arrived during your quiet hours:',
        key: `quiet.${user}.${Math.max(...rows.map((r) => r.created_at.getTime()))}`,
        timezone: s?.timezone ?? 'UTC',
      });
      if (sent === 'sent') await this.markSent(ids, claim);
    }
    return users.length;
  }

  private async sendDigests(stopping: Pick<Stopping, 'requested' | 'cutting'>): Promise<number> {
    const now = this.clock.now();
    const claim = randomUUID();
    const [due] = (await this.dataSource.query(
      `UPDATE notification_settings
          SET digest_claim = $1, digest_lease_until = clock_timestamp() + $3 * interval '1 millisecond'
        WHERE recipient_id IN (
          SELECT recipient_id FROM notification_settings
           WHERE email_digest = 'daily' AND next_digest_at <= $2
             AND (digest_lease_until IS NULL OR digest_lease_until <= clock_timestamp())
           ORDER BY next_digest_at LIMIT $4 FOR UPDATE SKIP LOCKED)
        RETURNING recipient_id, next_digest_at`,
      [claim, now, this.config.mail.lease, USERS_PER_ROUND],
    )) as [{ recipient_id: string; next_digest_at: Date }[], number];
    for (const [index, { recipient_id: user, next_digest_at: dueAt }] of due.entries()) {
      if (stopping.requested) {
        // Shutting down: the digests not started go back, for the next worker to send.
        await this.releaseDigests(
          due.slice(index).map((d) => d.recipient_id),
          claim,
        );
        break;
      }
      const s = (await this.settingsOf([{ recipient_id: user }])).get(user);
      if (!s) continue;
      const [rows] = (await this.dataSource.query(
        `UPDATE notifications
            SET email_claim = $2, email_lease_until = clock_timestamp() + $3 * interval '1 millisecond'
          WHERE recipient_id = $1 AND email_status = 'digest'
            AND (email_lease_until IS NULL OR email_lease_until <= clock_timestamp())
          RETURNING ${LISTED}`,
        [user, claim, this.config.mail.lease],
      )) as [Listed[], number];
      // No notifications since the previous digest: no email, the day is done all the same.
      if (rows.length > 0) {
        const sent = await this.sendSummary(user, rows, claim, stopping, {
          subject: `Your daily digest: ${rows.length} notification${rows.length === 1 ? '' : 's'}`,
          intro: 'Your notifications since the previous digest:',
          key: `digest.${user}.${dueAt.getTime()}`,
          timezone: s.timezone,
        });
        if (sent === 'released') {
          await this.releaseDigests([user], claim);
          continue;
        }
        if (sent === 'failed') {
          await this.dataSource.query(
            `UPDATE notification_settings SET digest_claim = NULL,
                    digest_lease_until = clock_timestamp() + $3 * interval '1 millisecond'
              WHERE recipient_id = $1 AND digest_claim = $2`,
            [user, claim, RETRY_BASE_MS * 5],
          );
          continue;
        }
      }
      const next = nextDigestAt(now, s.timezone, s.digestTime, quietOf(s));
      await this.dataSource.transaction(async (manager) => {
        await manager.query(
          `UPDATE notifications SET email_status = 'sent', email_claim = NULL, email_lease_until = NULL
            WHERE id = ANY($1::uuid[]) AND email_claim = $2 AND email_status = 'digest'`,
          [rows.map((r) => r.id), claim],
        );
        await manager.query(
          `UPDATE notification_settings SET next_digest_at = $3, digest_claim = NULL, digest_lease_until = NULL
            WHERE recipient_id = $1 AND digest_claim = $2`,
          [user, claim, next],
        );
      });
    }
    return due.length;
  }

  /**
   * Sends one email listing the entries: `sent`; on failure counts an attempt on each: `failed`;
   * cut by a shutdown, gives the entries back as they were: `released`.
   */
  private async sendSummary(
    user: string,
    rows: Listed[],
    claim: string,
    stopping: Pick<Stopping, 'cutting'>,
    mail: { subject: string; intro: string; key: string; timezone: string },
  ): Promise<'sent' | 'failed' | 'released'> {
    try {
      const [profile] = await this.rpc.send(AclSubjects.usersGetMany, { ids: [user] });
      if (!profile) {
        await this.finish(rows, claim, 'failed');
        return 'failed';
      }
      const origin = this.config.mail.publicUrl;
      const lines = [...rows]
        .sort((a, b) => a.created_at.getTime() - b.created_at.getTime())
        .map((r) => {
          const local = localTime(r.created_at, mail.timezone);
          const date = new Date(local.wall).toISOString().slice(0, 16).replace('T', ' ');
          return [
            `- [${r.priority}] ${r.title} (${date} ${mail.timezone})`,
            ...(r.body ? [`  ${r.body}`] : []),
            `  ${linkTarget(r.notification_type, r.data, origin)}`,
          ].join('\n');
        });
      await this.mailer.send({
        to: profile.email,
        subject: mail.subject,
        text: `${mail.intro}\n\n${lines.join('\n\n')}\n`,
        messageId: `<${mail.key}@${this.mailer.domain}>`,
      });
      return 'sent';
    } catch (error) {
      if (stopping.cutting) {
        await this.dataSource.query(
          `UPDATE notifications SET email_claim = NULL, email_lease_until = NULL
            WHERE id = ANY($1::uuid[]) AND email_claim = $2`,
          [rows.map((r) => r.id), claim],
        );
        return 'released';
      }
      this.logger.warn({ err: String(error), recipient_id: user }, 'Summary email not sent');
      await this.dataSource.query(
        `UPDATE notifications
            SET attempts = attempts + 1,
                email_status = CASE WHEN attempts + 1 >= $3 THEN 'failed' ELSE email_status END,
                email_claim = NULL,
                email_lease_until = clock_timestamp()
                  + LEAST($4::bigint * power(2, attempts)::bigint, $5::bigint) * interval '1 millisecond'
          WHERE id = ANY($1::uuid[]) AND email_claim = $2`,
        [rows.map((r) => r.id), claim, MAX_ATTEMPTS, RETRY_BASE_MS, RETRY_MAX_MS],
      );
      return 'failed';
    }
  }

  /** Gives users' claimed digests back at once: the next round (here or on another replica) sends them. */
  private async releaseDigests(users: string[], claim: string): Promise<void> {
    await this.dataSource.query(
      `UPDATE notification_settings SET digest_claim = NULL, digest_lease_until = NULL
        WHERE recipient_id = ANY($1::uuid[]) AND digest_claim = $2`,
      [users, claim],
    );
  }

  private async markSent(ids: string[], claim: string): Promise<void> {
    await this.dataSource.query(
      `UPDATE notifications SET email_status = 'sent', email_claim = NULL, email_lease_until = NULL
        WHERE id = ANY($1::uuid[]) AND email_claim = $2`,
      [ids, claim],
    );
  }

  private async finish(rows: Listed[], claim: string, status: 'failed'): Promise<void> {
    await this.dataSource.query(
      `UPDATE notifications SET email_status = $3, email_claim = NULL, email_lease_until = NULL
        WHERE id = ANY($1::uuid[]) AND email_claim = $2`,
      [rows.map((r) => r.id), claim, status],
    );
  }

  /** Entries put aside, their claim released: written only while the claim is still ours. */
  private async setAside(ids: string[], claim: string, status: 'held' | 'digest', until: string | null) {
    await this.dataSource.query(
      `UPDATE notifications SET email_status = $3, held_until = $4, email_claim = NULL, email_lease_until = NULL
        WHERE id = ANY($1::uuid[]) AND email_claim = $2`,
      [ids, claim, status, until],
    );
  }

  private quietFor(e: Deliverable, settings: Map<string, NotificationSettings>, now: Date): boolean {
    const s = settings.get(e.recipient_id);
    return e.priority !== 'URGENT' && !!s && quietPeriodAt(now, s.timezone, quietOf(s)) !== null;
  }

  private async settingsOf(
    entries: Pick<Deliverable, 'recipient_id'>[],
  ): Promise<Map<string, NotificationSettings>> {
    return this.settings.of(entries.map((e) => e.recipient_id));
  }
}
