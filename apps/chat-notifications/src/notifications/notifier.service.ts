import { Inject, Injectable, Logger } from '@nestjs/common';
import type { NotificationPriority } from '@media/contracts';
import type { EntityManager } from 'typeorm';
import { DeliveryWorker } from './delivery.worker';
import { MailerService } from '../mail/mailer.service';

export interface NewNotification {
  recipient_ids: string[];
  notification_type: string;
  title: string;
  body?: string | null;
  data?: Record<string, unknown>;
  /** Default `MEDIUM`; `URGENT` is never held by quiet hours or digests (docs/api/contract.md §7.3). */
  priority?: NotificationPriority;
}

/**
 * One inbox entry per distinct recipient, with each channel's delivery decided by the
 * recipient's preferences (docs/api/contract.md §4.14): the (type, channel) row, else the (`*`, channel)
 * row, else enabled. Resolved in the INSERT itself, for every recipient at once.
 */
export const INSERT_NOTIFICATIONS_SQL = `
  WITH r AS (SELECT DISTINCT unnest($1::uuid[]) AS id)
  INSERT INTO notifications (recipient_id, notification_type, title, body, data, priority, websocket_status, email_status)
  SELECT r.id, $2, $3, $4, $5::jsonb, $7,
         CASE WHEN COALESCE(ws_t.enabled, ws_any.enabled, true) THEN 'pending' ELSE 'disabled' END,
         CASE WHEN NOT COALESCE(em_t.enabled, em_any.enabled, true) THEN 'disabled'
              WHEN $6 THEN 'pending' ELSE 'skipped' END
    FROM r
    LEFT JOIN notification_preferences ws_t
      ON ws_t.recipient_id = r.id AND ws_t.channel = 'websocket' AND ws_t.notification_type = $2
    LEFT JOIN notification_preferences ws_any
      ON ws_any.recipient_id = r.id AND ws_any.channel = 'websocket' AND ws_any.notification_type = '*'
    LEFT JOIN notification_preferences em_t
      ON em_t.recipient_id = r.id AND em_t.channel = 'email' AND em_t.notification_type = $2
    LEFT JOIN notification_preferences em_any
      ON em_any.recipient_id = r.id AND em_any.channel = 'email' AND em_any.notification_type = '*'
  RETURNING id, recipient_id, email_status`;

@Injectable()
export class NotifierService {
  private readonly logger = new Logger('Notifier');

  constructor(
    @Inject(MailerService) private readonly mailer: MailerService,
    @Inject(DeliveryWorker) private readonly worker: DeliveryWorker,
  ) {}

  /** Writes the entries in the caller's transaction; delivery follows its commit. Returns the count. */
  async notify(manager: EntityManager, input: NewNotification): Promise<number> {
    const recipients = [...new Set(input.recipient_ids.map((id) => id.toLowerCase()))];
    if (recipients.length === 0) return 0;
    const rows: { id: string; recipient_id: string; email_status: string }[] = await manager.query(
      INSERT_NOTIFICATIONS_SQL,
      [
        recipients,
        input.notification_type,
        input.title,
        input.body ?? null,
        JSON.stringify(input.data ?? {}),
        this.mailer.enabled,
        input.priority ?? 'MEDIUM',
      ],
    );
    // One line per call, not per recipient: a message in a room of 1,000 skips 999 emails.
    const skipped = rows.filter((r) => r.email_status === 'skipped');
    if (skipped.length > 0) {
      this.logger.log(
        {
          count: skipped.length,
          notification_ids: skipped.map((r) => r.id),
          type: input.notification_type,
        },
        'email delivery skipped: SMTP_URL is not set',
      );
    }
    // The rows are visible once the caller's transaction commits; the worker looks shortly after.
    this.worker.nudge();
    return rows.length;
  }
}
