import type { MigrationInterface, QueryRunner } from 'typeorm';

/**
 * The Idempotency-Key table every app has (docs/api/contract.md §7.1), applied with the outbox's
 * before the app's own migrations. `scope` is the SHA-256 of caller, method, path and key (the
 * columns beside it are kept for reading); its primary key is what lets one replica, and one
 * request, claim a key.
 */
export class CreateIdempotencyKeys1700000000950 implements MigrationInterface {
  name = 'CreateIdempotencyKeys1700000000950';

  async up(q: QueryRunner): Promise<void> {
    await q.query(`
      CREATE TABLE idempotency_keys (
        scope text PRIMARY KEY,
        caller text NOT NULL,
        method text NOT NULL,
        path text NOT NULL,
        key text NOT NULL,
        fingerprint text NOT NULL,
        claim uuid NOT NULL,
        locked_at timestamptz(3) NOT NULL DEFAULT now(),
        status int,
        headers jsonb,
        body bytea,
        expires_at timestamptz(3)
      )`);
    await q.query(`CREATE INDEX idempotency_keys_expires_idx ON idempotency_keys (expires_at)`);
  }

  async down(q: QueryRunner): Promise<void> {
    await q.query(`DROP TABLE idempotency_keys`);
  }
}
