import type { MigrationInterface, QueryRunner } from 'typeorm';

/**
 * Documents whose deletion was applied: a room created while the deletion event was on its way
 * cannot keep the document (as content and inventory keep theirs).
 */
export class DeletedDocuments1764800000011 implements MigrationInterface {
  name = 'DeletedDocuments1764800000011';

  async up(q: QueryRunner): Promise<void> {
    await q.query(`
      CREATE TABLE deleted_documents (
        document_id uuid PRIMARY KEY,
        deleted_at timestamptz(3) NOT NULL DEFAULT now()
      )`);
  }

  async down(q: QueryRunner): Promise<void> {
    await q.query(`DROP TABLE deleted_documents`);
  }
}
