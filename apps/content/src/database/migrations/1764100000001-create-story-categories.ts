import type { MigrationInterface, QueryRunner } from 'typeorm';

/** Story categories (their list and their management). */
export class CreateStoryCategories1764100000001 implements MigrationInterface {
  name = 'CreateStoryCategories1764100000001';

  async up(q: QueryRunner): Promise<void> {
    await q.query(`
      CREATE TABLE story_categories (
        id uuid PRIMARY KEY DEFAULT gen_random_uuid(),
        name text NOT NULL,
        description text,
        created_at timestamptz(3) NOT NULL DEFAULT now(),
        updated_at timestamptz(3) NOT NULL DEFAULT now()
      )`);
    // Names are unique case-insensitively; the index is what turns two racing creates into one 409.
    await q.query(`CREATE UNIQUE INDEX story_categories_name_key ON story_categories (lower(name))`);
    // The list order: name in byte order, then id.
    await q.query(`CREATE INDEX story_categories_list_idx ON story_categories ((name COLLATE "C"), id)`);
  }

  async down(q: QueryRunner): Promise<void> {
    await q.query(`DROP TABLE story_categories`);
  }
}
