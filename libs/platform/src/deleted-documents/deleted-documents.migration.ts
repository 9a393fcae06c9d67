import type { MigrationInterface, QueryRunner } from 'typeorm';

/**
 * The tombstones of `DeletedDocuments`. content, inventory and chat-notifications also create
 * this table, with this very shape, in migrations of their own that run first: where it exists
 * it is left as it is, rows and all; a database without it gets it here. Down leaves it, since
 * it may predate this migration.
 */
export class DeletedDocumentsTable1766000000000 implements MigrationInterface {
  name = 'DeletedDocumentsTable1766000000000';

  async up(q: QueryRunner): Promise<void> {
    await q.query(`
      CREATE TABLE IF NOT EXISTS deleted_documents (
        document_id uuid PRIMARY KEY,
        deleted_at timestamptz(3) NOT NULL DEFAULT now()
      )`);
    await q.query(
      `ALTER TABLE deleted_documents ADD COLUMN IF NOT EXISTS deleted_at timestamptz(3) NOT NULL DEFAULT now()`,
    );
  }

  async down(): Promise<void> {
    /* the table may be older than this migration: it stays */
  }
}
