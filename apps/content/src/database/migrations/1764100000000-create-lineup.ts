import type { MigrationInterface, QueryRunner } from 'typeorm';

/** Broadcast schedules, their slots and the documents attached to slots. */
export class CreateLineup1764100000000 implements MigrationInterface {
  name = 'CreateLineup1764100000000';

  async up(q: QueryRunner): Promise<void> {
    await q.query(`
      CREATE TABLE broadcast_schedules (
        id uuid PRIMARY KEY DEFAULT gen_random_uuid(),
        medium text NOT NULL,
        channel text NOT NULL,
        month int NOT NULL,
        year int NOT NULL,
        title text NOT NULL,
        version int NOT NULL DEFAULT 1,
        effective_from date NOT NULL,
        effective_to date NOT NULL,
        uploaded_by uuid NOT NULL,
        metadata jsonb NOT NULL DEFAULT '{}',
        -- the strong ETag: bumped by every change of the schedule, its slots or their assets
        revision int NOT NULL DEFAULT 1,
        created_at timestamptz(3) NOT NULL DEFAULT now(),
        updated_at timestamptz(3) NOT NULL DEFAULT now(),
        CONSTRAINT broadcast_schedules_medium_check CHECK (medium IN ('TV', 'RADIO', 'DIGITAL')),
        CONSTRAINT broadcast_schedules_range_check CHECK (effective_from <= effective_to),
        CONSTRAINT broadcast_schedules_metadata_check CHECK (jsonb_typeof(metadata) = 'object')
      )`);
    // The list order (year, month, created_at, id, all descending), unfiltered and under each filter.
    await q.query(
      `CREATE INDEX broadcast_schedules_list_idx ON broadcast_schedules (year DESC, month DESC, created_at DESC, id DESC)`,
    );
    await q.query(
      `CREATE INDEX broadcast_schedules_medium_idx ON broadcast_schedules (medium, channel, year DESC, month DESC, created_at DESC, id DESC)`,
    );
    await q.query(
      `CREATE INDEX broadcast_schedules_channel_idx ON broadcast_schedules (channel, year DESC, month DESC, created_at DESC, id DESC)`,
    );

    await q.query(`
      CREATE TABLE slots (
        id uuid PRIMARY KEY DEFAULT gen_random_uuid(),
        schedule_id uuid NOT NULL REFERENCES broadcast_schedules (id) ON DELETE CASCADE,
        air_date date NOT NULL,
        start_time time(0) NOT NULL,
        duration_seconds int NOT NULL,
        title text NOT NULL,
        created_at timestamptz(3) NOT NULL DEFAULT now(),
        CONSTRAINT slots_duration_check CHECK (duration_seconds BETWEEN 1 AND 86400)
      )`);
    // Serves the slot list (keyset on air_date, start_time, id), slot_count (index-only GROUP BY
    // air_date) and the date-range check of a PUT (min/max air_date).
    await q.query(`CREATE INDEX slots_schedule_order_idx ON slots (schedule_id, air_date, start_time, id)`);

    await q.query(`
      CREATE TABLE slot_assets (
        slot_id uuid NOT NULL REFERENCES slots (id) ON DELETE CASCADE,
        document_id uuid NOT NULL,
        attached_by uuid NOT NULL,
        attached_at timestamptz(3) NOT NULL DEFAULT now(),
        PRIMARY KEY (slot_id, document_id)
      )`);
    // A document's deletion finds its attachments by this index.
    await q.query(`CREATE INDEX slot_assets_document_idx ON slot_assets (document_id)`);

    // Documents whose deletion was applied: an attach racing the deletion event cannot revive one.
    await q.query(`
      CREATE TABLE deleted_documents (
        document_id uuid PRIMARY KEY,
        deleted_at timestamptz(3) NOT NULL DEFAULT now()
      )`);
  }

  async down(q: QueryRunner): Promise<void> {
    await q.query(`DROP TABLE deleted_documents`);
    await q.query(`DROP TABLE slot_assets`);
    await q.query(`DROP TABLE slots`);
    await q.query(`DROP TABLE broadcast_schedules`);
  }
}
