import type { MigrationInterface, QueryRunner } from 'typeorm';

/**
 * acl's side of the audit trail (CONTRACT §8.2, §8.3): every key that ever signed a checkpoint,
 * kept for good (the token JWKS trims its keys, this table never does), and the merged copy of
 * every app's sealed entries, one row per `(app, seq)`, fed by the AUDIT stream.
 */
export class CreateAuditCopy1764900000201 implements MigrationInterface {
  name = 'CreateAuditCopy1764900000201';

  async up(q: QueryRunner): Promise<void> {
    await q.query(`
      CREATE TABLE audit_signing_keys (
        kid text PRIMARY KEY,
        public_jwk jsonb NOT NULL,
        first_signed_at timestamptz(3) NOT NULL DEFAULT now()
      )`);
    await q.query(`
      CREATE TABLE audit_all (
        app text NOT NULL,
        seq bigint NOT NULL,
        id uuid NOT NULL,
        at timestamptz(3) NOT NULL,
        action text NOT NULL,
        actor_type text NOT NULL,
        actor_id text NOT NULL,
        actor_name text,
        resource_type text NOT NULL,
        resource_id text,
        request_id text,
        cause text,
        changes jsonb NOT NULL,
        prev_hash text NOT NULL,
        hash text NOT NULL,
        PRIMARY KEY (app, seq)
      )`);
    // The list's order (at, app, seq; read backwards) and one index per filter, each ending in it.
    await q.query(`CREATE INDEX audit_all_order_idx ON audit_all (at, app, seq)`);
    await q.query(`CREATE INDEX audit_all_actor_idx ON audit_all (actor_id, at, app, seq)`);
    await q.query(
      `CREATE INDEX audit_all_resource_idx ON audit_all (resource_type, resource_id, at, app, seq)`,
    );
    await q.query(`CREATE INDEX audit_all_request_idx ON audit_all (request_id, at, app, seq)`);
    await q.query(`CREATE INDEX audit_all_action_idx ON audit_all (action, at, app, seq)`);
  }

  async down(q: QueryRunner): Promise<void> {
    await q.query(`DROP TABLE audit_all`);
    await q.query(`DROP TABLE audit_signing_keys`);
  }
}
