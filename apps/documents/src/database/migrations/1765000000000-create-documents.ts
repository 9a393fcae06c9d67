import type { MigrationInterface, QueryRunner } from 'typeorm';

/** Document records; deletion is soft so the event and late readers agree on the uploader. */
export class CreateDocuments1765000000000 implements MigrationInterface {
  name = 'CreateDocuments1765000000000';

  async up(q: QueryRunner): Promise<void> {
    await q.query(`
      CREATE TABLE documents (
        id uuid PRIMARY KEY,
        filename text NOT NULL CHECK (char_length(filename) BETWEEN 1 AND 255),
        content_type text NOT NULL,
        size bigint NOT NULL CHECK (size >= 0),
        sha256 char(64) NOT NULL,
        uploaded_by uuid NOT NULL,
        created_at timestamptz(3) NOT NULL DEFAULT now(),
        deleted_at timestamptz(3),
        deleted_by uuid,
        file_removed_at timestamptz(3)
      )`);
    // The caller's list (GET /documents, newest first): keyset on (created_at, id) per uploader.
    await q.query(`
      CREATE INDEX documents_uploader_idx ON documents (uploaded_by, created_at DESC, id DESC)
      WHERE deleted_at IS NULL`);
    // The sweeper's work list: deleted records whose file may still be stored.
    await q.query(`
      CREATE INDEX documents_file_pending_idx ON documents (deleted_at)
      WHERE deleted_at IS NOT NULL AND file_removed_at IS NULL`);
  }

  async down(q: QueryRunner): Promise<void> {
    await q.query(`DROP TABLE documents`);
  }
}
