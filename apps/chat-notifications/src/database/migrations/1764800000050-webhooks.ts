import type { MigrationInterface, QueryRunner } from 'typeorm';

/**
 * Outbound webhooks (docs/api/webhooks.md): endpoints (secrets sealed with WEBHOOK_SECRETS_KEY),
 * the events received from the stream (the body each delivery sends), one message per endpoint
 * and event (leased by the replica delivering it), and every attempt with its answer.
 */
export class Webhooks1764800000050 implements MigrationInterface {
  name = 'Webhooks1764800000050';

  async up(q: QueryRunner): Promise<void> {
    await q.query(`
      CREATE TABLE webhook_endpoints (
        id uuid PRIMARY KEY,
        url text NOT NULL,
        description text,
        event_types text[] NOT NULL,
        disabled boolean NOT NULL DEFAULT false,
        disabled_reason text,
        secret_sealed text NOT NULL,
        previous_secret_sealed text,
        previous_secret_until timestamptz(3),
        failing_since timestamptz(3),
        created_at timestamptz(3) NOT NULL DEFAULT clock_timestamp(),
        updated_at timestamptz(3) NOT NULL DEFAULT clock_timestamp()
      )`);
    await q.query(
      `CREATE INDEX webhook_endpoints_created_idx ON webhook_endpoints (created_at DESC, id DESC)`,
    );
    await q.query(`
      CREATE TABLE webhook_events (
        id uuid PRIMARY KEY,
        type text NOT NULL,
        occurred_at timestamptz(3) NOT NULL,
        body text NOT NULL,
        received_at timestamptz(3) NOT NULL DEFAULT clock_timestamp()
      )`);
    await q.query(`CREATE INDEX webhook_events_occurred_idx ON webhook_events (occurred_at, id)`);
    await q.query(`
      CREATE TABLE webhook_messages (
        id uuid PRIMARY KEY DEFAULT gen_random_uuid(),
        endpoint_id uuid NOT NULL REFERENCES webhook_endpoints (id) ON DELETE CASCADE,
        event_id uuid NOT NULL REFERENCES webhook_events (id) ON DELETE CASCADE,
        type text NOT NULL,
        status text NOT NULL DEFAULT 'pending',
        attempts integer NOT NULL DEFAULT 0,
        cycle_attempts integer NOT NULL DEFAULT 0,
        next_attempt_at timestamptz(3),
        last_status_code integer,
        lease_owner uuid,
        lease_until timestamptz(3),
        created_at timestamptz(3) NOT NULL DEFAULT clock_timestamp(),
        updated_at timestamptz(3) NOT NULL DEFAULT clock_timestamp(),
        CONSTRAINT webhook_messages_status_check CHECK (status IN ('pending', 'delivered', 'failed')),
        CONSTRAINT webhook_messages_once UNIQUE (endpoint_id, event_id)
      )`);
    await q.query(
      `CREATE INDEX webhook_messages_list_idx ON webhook_messages (endpoint_id, created_at DESC, id DESC)`,
    );
    await q.query(
      `CREATE INDEX webhook_messages_due_idx ON webhook_messages (endpoint_id, next_attempt_at) WHERE status = 'pending'`,
    );
    await q.query(
      `CREATE INDEX webhook_messages_leased_idx ON webhook_messages (endpoint_id, lease_until) WHERE lease_until IS NOT NULL`,
    );
    await q.query(`CREATE INDEX webhook_messages_event_idx ON webhook_messages (event_id)`);
    await q.query(`
      CREATE TABLE webhook_attempts (
        id uuid PRIMARY KEY DEFAULT gen_random_uuid(),
        message_id uuid NOT NULL REFERENCES webhook_messages (id) ON DELETE CASCADE,
        at timestamptz(3) NOT NULL DEFAULT clock_timestamp(),
        status_code integer,
        duration_ms integer NOT NULL,
        error text,
        response_body text NOT NULL
      )`);
    await q.query(`CREATE INDEX webhook_attempts_message_idx ON webhook_attempts (message_id, at, id)`);
  }

  async down(q: QueryRunner): Promise<void> {
    await q.query(`DROP TABLE webhook_attempts`);
    await q.query(`DROP TABLE webhook_messages`);
    await q.query(`DROP TABLE webhook_events`);
    await q.query(`DROP TABLE webhook_endpoints`);
  }
}
