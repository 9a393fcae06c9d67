import type { MigrationInterface, QueryRunner } from 'typeorm';

/**
 * The audit tables every app has (CONTRACT §8). An entry is inserted in its change's own
 * transaction with `seq`, `prev_hash` and `hash` null; the sealer gives it its place in the
 * chain right after. `recorded` is the insertion order, `tx` the inserting transaction, so the
 * sealer only takes entries whose transaction has ended.
 */
export class CreateAuditTrail1700000000980 implements MigrationInterface {
  name = 'CreateAuditTrail1700000000980';

  async up(q: QueryRunner): Promise<void> {
    await q.query(`
      CREATE TABLE audit_entries (
        id uuid PRIMARY KEY DEFAULT gen_random_uuid(),
        recorded bigserial NOT NULL,
        tx xid8 NOT NULL DEFAULT pg_current_xact_id(),
        seq bigint UNIQUE,
        at timestamptz(3) NOT NULL DEFAULT date_trunc('milliseconds', clock_timestamp()),
        app text NOT NULL,
        action text NOT NULL,
        actor_type text NOT NULL,
        actor_id text NOT NULL,
        actor_name text,
        resource_type text NOT NULL,
        resource_id text,
        request_id text,
        cause text,
        changes jsonb NOT NULL DEFAULT '{}',
        prev_hash text,
        hash text
      )`);
    await q.query(`CREATE INDEX audit_entries_unsealed_idx ON audit_entries (recorded) WHERE seq IS NULL`);
    await q.query(
      `CREATE INDEX audit_entries_resource_idx ON audit_entries (resource_type, resource_id, seq)`,
    );
    await q.query(`CREATE INDEX audit_entries_actor_idx ON audit_entries (actor_id, seq)`);
    await q.query(`CREATE INDEX audit_entries_request_idx ON audit_entries (request_id, seq)`);
    await q.query(`CREATE INDEX audit_entries_at_idx ON audit_entries (at, seq)`);
    await q.query(`
      CREATE TABLE audit_checkpoints (
        seq bigint PRIMARY KEY,
        hash text NOT NULL,
        at timestamptz(3) NOT NULL,
        kid text NOT NULL,
        jws text NOT NULL
      )`);
  }

  async down(q: QueryRunner): Promise<void> {
    await q.query(`DROP TABLE audit_checkpoints`);
    await q.query(`DROP TABLE audit_entries`);
  }
}
