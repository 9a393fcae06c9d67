import type { MigrationInterface, QueryRunner } from 'typeorm';

/**
 * The push claim's own index: its rows waiting to be pushed, nothing else. The index it read
 * (`notifications_pending_idx`) also held every row whose email was still pending, each pushed
 * long ago; the claim walked past them all at every round, and an email backlog (the mail server
 * down, emails retried on their schedule) grew every round with it (docs/benchmarks.md, "The push
 * claim beside an email backlog"). The email claim has had its own since EmailLease1764800000010.
 * Like every migration here, the index is built in the migration's transaction, which holds back
 * writes to `notifications` while it reads the table once (seconds at a few million rows).
 */
export class PushPendingIndex1765300000100 implements MigrationInterface {
  name = 'PushPendingIndex1765300000100';

  async up(q: QueryRunner): Promise<void> {
    await q.query(
      `CREATE INDEX notifications_push_pending_idx ON notifications (created_at) WHERE websocket_status = 'pending'`,
    );
    await q.query(`DROP INDEX notifications_pending_idx`);
  }

  async down(q: QueryRunner): Promise<void> {
    await q.query(
      `CREATE INDEX notifications_pending_idx ON notifications (created_at) WHERE websocket_status = 'pending' OR email_status = 'pending'`,
    );
    await q.query(`DROP INDEX notifications_push_pending_idx`);
  }
}
