import type { MigrationInterface, QueryRunner } from 'typeorm';

/**
 * One id per installation (this database), written into the storage it uses: the sweeper
 * removes files without a record only from a storage that carries this id, so two
 * installations pointed at one directory or bucket never delete each other's files.
 */
export class CreateStorageOwner1765000000001 implements MigrationInterface {
  name = 'CreateStorageOwner1765000000001';

  async up(q: QueryRunner): Promise<void> {
    await q.query(`
      CREATE TABLE storage_owner (
        singleton boolean PRIMARY KEY DEFAULT true CHECK (singleton),
        id uuid NOT NULL DEFAULT gen_random_uuid()
      )`);
    await q.query(`INSERT INTO storage_owner DEFAULT VALUES`);
  }

  async down(q: QueryRunner): Promise<void> {
    await q.query(`DROP TABLE storage_owner`);
  }
}
