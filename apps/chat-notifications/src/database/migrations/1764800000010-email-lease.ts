import type { MigrationInterface, QueryRunner } from 'typeorm';

/**
 * Emails are claimed with a lease (committed), sent outside any transaction, then marked: a
 * replica's claim is `email_claim` until `email_lease_until`; a failed attempt sets the lease to
 * the time of the next attempt.
 */
export class EmailLease1764800000010 implements MigrationInterface {
  name = 'EmailLease1764800000010';

  async up(q: QueryRunner): Promise<void> {
    await q.query(
      `ALTER TABLE notifications ADD COLUMN email_claim uuid, ADD COLUMN email_lease_until timestamptz(3)`,
    );
    await q.query(
      `CREATE INDEX notifications_email_due_idx ON notifications (created_at) WHERE email_status = 'pending'`,
    );
  }

  async down(q: QueryRunner): Promise<void> {
    await q.query(`DROP INDEX notifications_email_due_idx`);
    await q.query(`ALTER TABLE notifications DROP COLUMN email_lease_until, DROP COLUMN email_claim`);
  }
}
