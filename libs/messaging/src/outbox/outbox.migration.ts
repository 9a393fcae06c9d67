import type { MigrationInterface, QueryRunner } from 'typeorm';

/** The outbox and processed-events tables every app has (applied before the app's own). */
export class CreateOutbox1700000000000 implements MigrationInterface {
  name = 'CreateOutbox1700000000000';

  async up(q: QueryRunner): Promise<void> {
    await q.query(`
      CREATE TABLE outbox (
        id uuid PRIMARY KEY DEFAULT gen_random_uuid(),
        subject text NOT NULL,
        payload jsonb NOT NULL,
        meta jsonb NOT NULL DEFAULT '{}',
        created_at timestamptz(3) NOT NULL DEFAULT now(),
        published_at timestamptz(3),
        attempts int NOT NULL DEFAULT 0
      )`);
    await q.query(`CREATE INDEX outbox_pending_idx ON outbox (created_at) WHERE published_at IS NULL`);
    await q.query(`
      CREATE TABLE processed_events (
        event_id uuid NOT NULL,
        consumer text NOT NULL,
        processed_at timestamptz(3) NOT NULL DEFAULT now(),
        PRIMARY KEY (event_id, consumer)
      )`);
  }

  async down(q: QueryRunner): Promise<void> {
    await q.query(`DROP TABLE processed_events`);
    await q.query(`DROP TABLE outbox`);
  }
}
