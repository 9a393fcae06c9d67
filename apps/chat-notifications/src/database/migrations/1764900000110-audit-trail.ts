import { auditTrigger, dropAuditTrigger, type AuditedTable } from '@media/platform';
import type { MigrationInterface, QueryRunner } from 'typeorm';

/** What chat-notifications records in its audit trail (CONTRACT §8.1): one entry per changed row of these tables. */
const AUDITED: Omit<AuditedTable, 'app'>[] = [
  { table: 'chat_rooms', type: 'room', ignored: ['updated_at'] },
  {
    table: 'chat_room_members',
    type: 'room.member',
    idColumn: 'room_id',
    ignored: ['last_read_at'],
    verbs: { INSERT: 'added', DELETE: 'removed' },
  },
  { table: 'chat_messages', type: 'message' },
  {
    table: 'notification_settings',
    type: 'notification.settings',
    idColumn: 'recipient_id',
    ignored: ['updated_at', 'next_digest_at', 'digest_claim', 'digest_lease_until'],
  },
  { table: 'notification_preferences', type: 'notification.preference', ignored: ['updated_at'] },
  {
    table: 'webhook_endpoints',
    type: 'webhook.endpoint',
    redacted: ['secret_sealed', 'previous_secret_sealed'],
    // Set by each failed delivery (the worker's bookkeeping); disabling the endpoint is recorded.
    ignored: ['updated_at', 'failing_since'],
  },
];

/** Installs the audit row trigger on each audited table (the recording itself is the platform's). */
export class AuditTrailChatNotifications1764900000110 implements MigrationInterface {
  name = 'AuditTrailChatNotifications1764900000110';

  async up(q: QueryRunner): Promise<void> {
    for (const table of AUDITED) await q.query(auditTrigger({ app: 'chat-notifications', ...table }));
  }

  async down(q: QueryRunner): Promise<void> {
    for (const { table } of AUDITED) await q.query(dropAuditTrigger(table));
  }
}
