import type { MigrationInterface, QueryRunner } from 'typeorm';

/** Each user's timezone, quiet hours and daily digest (docs/api/contract.md §7.3). */
export class NotificationSettings1764800000020 implements MigrationInterface {
  name = 'NotificationSettings1764800000020';

  async up(q: QueryRunner): Promise<void> {
    await q.query(`
      CREATE TABLE notification_settings (
        recipient_id uuid PRIMARY KEY,
        timezone text NOT NULL,
        quiet_start text,
        quiet_end text,
        email_digest text NOT NULL,
        digest_time text NOT NULL,
        created_at timestamptz(3) NOT NULL DEFAULT clock_timestamp(),
        updated_at timestamptz(3) NOT NULL DEFAULT clock_timestamp(),
        CONSTRAINT notification_settings_digest_check CHECK (email_digest IN ('off', 'daily')),
        CONSTRAINT notification_settings_quiet_check CHECK ((quiet_start IS NULL) = (quiet_end IS NULL))
      )`);
  }

  async down(q: QueryRunner): Promise<void> {
    await q.query(`DROP TABLE notification_settings`);
  }
}
