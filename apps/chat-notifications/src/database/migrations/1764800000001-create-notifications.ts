import type { MigrationInterface, QueryRunner } from 'typeorm';

/** Notification preferences, the inbox and websocket tickets. */
export class CreateNotifications1764800000001 implements MigrationInterface {
  name = 'CreateNotifications1764800000001';

  async up(q: QueryRunner): Promise<void> {
    await q.query(`
      CREATE TABLE notification_preferences (
        id uuid PRIMARY KEY DEFAULT gen_random_uuid(),
        recipient_id uuid NOT NULL,
        notification_type text NOT NULL,
        channel text NOT NULL,
        enabled boolean NOT NULL,
        created_at timestamptz(3) NOT NULL DEFAULT clock_timestamp(),
        updated_at timestamptz(3) NOT NULL DEFAULT clock_timestamp(),
        CONSTRAINT notification_preferences_channel_check CHECK (channel IN ('websocket', 'email'))
      )`);
    await q.query(
      `CREATE UNIQUE INDEX notification_preferences_key ON notification_preferences (recipient_id, notification_type, channel)`,
    );
    await q.query(`
      CREATE TABLE notifications (
        id uuid PRIMARY KEY DEFAULT gen_random_uuid(),
        recipient_id uuid NOT NULL,
        notification_type text NOT NULL,
        title text NOT NULL,
        body text,
        data jsonb NOT NULL DEFAULT '{}',
        -- per channel: pending, sent, disabled (by preference), skipped (no SMTP), failed
        websocket_status text NOT NULL,
        email_status text NOT NULL,
        attempts int NOT NULL DEFAULT 0,
        read_at timestamptz(3),
        archived_at timestamptz(3),
        created_at timestamptz(3) NOT NULL DEFAULT clock_timestamp()
      )`);
    await q.query(
      `CREATE INDEX notifications_inbox_idx ON notifications (recipient_id, created_at DESC, id DESC)`,
    );
    await q.query(
      `CREATE INDEX notifications_unread_idx ON notifications (recipient_id) WHERE read_at IS NULL AND archived_at IS NULL`,
    );
    await q.query(
      `CREATE INDEX notifications_pending_idx ON notifications (created_at) WHERE websocket_status = 'pending' OR email_status = 'pending'`,
    );
    await q.query(`
      CREATE TABLE ws_tickets (
        ticket_hash text PRIMARY KEY,
        user_id uuid NOT NULL,
        claims jsonb NOT NULL,
        expires_at timestamptz(3) NOT NULL
      )`);
    await q.query(`CREATE INDEX ws_tickets_expiry_idx ON ws_tickets (expires_at)`);
  }

  async down(q: QueryRunner): Promise<void> {
    await q.query(`DROP TABLE ws_tickets`);
    await q.query(`DROP TABLE notifications`);
    await q.query(`DROP TABLE notification_preferences`);
  }
}
