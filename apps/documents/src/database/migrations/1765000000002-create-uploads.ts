import type { MigrationInterface, QueryRunner } from 'typeorm';

/**
 * Resumable (tus) uploads in progress: what any replica needs to take the next chunk. A row
 * lives from creation to the last byte (then the document's record replaces it), termination or
 * expiry.
 */
export class CreateUploads1765000000002 implements MigrationInterface {
  name = 'CreateUploads1765000000002';

  async up(q: QueryRunner): Promise<void> {
    await q.query(`
      CREATE TABLE uploads (
        id uuid PRIMARY KEY,
        owner uuid NOT NULL,
        length bigint NOT NULL CHECK (length >= 0),
        "offset" bigint NOT NULL DEFAULT 0 CHECK ("offset" >= 0 AND "offset" <= length),
        filename text NOT NULL,
        content_type text NOT NULL,
        metadata text,
        hash_state bytea NOT NULL,
        storage_state jsonb NOT NULL DEFAULT '{}',
        expires_at timestamptz(3) NOT NULL,
        busy_token uuid,
        busy_until timestamptz(3),
        created_at timestamptz(3) NOT NULL DEFAULT now()
      )`);
    // The expiry sweep's work list.
    await q.query(`CREATE INDEX uploads_expires_idx ON uploads (expires_at)`);
  }

  async down(q: QueryRunner): Promise<void> {
    await q.query(`DROP TABLE uploads`);
  }
}
