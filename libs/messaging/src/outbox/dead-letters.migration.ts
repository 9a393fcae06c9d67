import type { MigrationInterface, QueryRunner } from 'typeorm';

/**
 * Every app's dead letters (events a handler could not apply after EVENTS_MAX_DELIVER attempts,
 * or that were malformed), the outbox relay's claim lease, and the indexes pruning reads.
 */
export class CreateDeadLetters1700000000900 implements MigrationInterface {
  name = 'CreateDeadLetters1700000000900';

  async up(q: QueryRunner): Promise<void> {
    await q.query(`
      CREATE TABLE dead_letters (
        id uuid PRIMARY KEY DEFAULT gen_random_uuid(),
        consumer text NOT NULL,
        subject text NOT NULL,
        event_id text,
        payload text NOT NULL,
        error text NOT NULL,
        deliveries int NOT NULL,
        created_at timestamptz(3) NOT NULL DEFAULT now()
      )`);
    await q.query(`CREATE INDEX dead_letters_created_idx ON dead_letters (created_at)`);
    // The relay claims rows for a while instead of holding their locks across a publish.
    await q.query(`ALTER TABLE outbox ADD COLUMN claimed_until timestamptz(3)`);
    await q.query(
      `CREATE INDEX outbox_published_idx ON outbox (published_at) WHERE published_at IS NOT NULL`,
    );
    await q.query(`CREATE INDEX processed_events_processed_idx ON processed_events (processed_at)`);
  }

  async down(q: QueryRunner): Promise<void> {
    await q.query(`DROP INDEX processed_events_processed_idx`);
    await q.query(`DROP INDEX outbox_published_idx`);
    await q.query(`ALTER TABLE outbox DROP COLUMN claimed_until`);
    await q.query(`DROP TABLE dead_letters`);
  }
}
