import type { MigrationInterface, QueryRunner } from 'typeorm';

/**
 * Holding and digests (docs/api/contract.md §7.3): an email held by quiet hours waits until
 * `held_until` (`email_status` `held`), one waiting for the daily digest has `email_status`
 * `digest`; a user's next digest is due at `next_digest_at`, claimed by one replica at a time
 * (`digest_claim` until `digest_lease_until`).
 */
export class QuietHoursDigests1764800000022 implements MigrationInterface {
  name = 'QuietHoursDigests1764800000022';

  async up(q: QueryRunner): Promise<void> {
    await q.query(`ALTER TABLE notifications ADD COLUMN held_until timestamptz(3)`);
    await q.query(
      `CREATE INDEX notifications_held_idx ON notifications (held_until) WHERE email_status = 'held'`,
    );
    await q.query(
      `CREATE INDEX notifications_digest_idx ON notifications (recipient_id) WHERE email_status = 'digest'`,
    );
    await q.query(`
      ALTER TABLE notification_settings
        ADD COLUMN next_digest_at timestamptz(3),
        ADD COLUMN digest_claim uuid,
        ADD COLUMN digest_lease_until timestamptz(3)`);
    await q.query(
      `CREATE INDEX notification_settings_digest_due_idx ON notification_settings (next_digest_at) WHERE email_digest = 'daily'`,
    );
  }

  async down(q: QueryRunner): Promise<void> {
    await q.query(`DROP INDEX notification_settings_digest_due_idx`);
    await q.query(
      `ALTER TABLE notification_settings DROP COLUMN digest_lease_until, DROP COLUMN digest_claim, DROP COLUMN next_digest_at`,
    );
    await q.query(`DROP INDEX notifications_digest_idx`);
    await q.query(`DROP INDEX notifications_held_idx`);
    await q.query(`ALTER TABLE notifications DROP COLUMN held_until`);
  }
}
