import type { MigrationInterface, QueryRunner } from 'typeorm';

/** Commission plans and their tiers, BM targets and collections. */
export class CreateCommissions1764200000000 implements MigrationInterface {
  name = 'CreateCommissions1764200000000';

  async up(q: QueryRunner): Promise<void> {
    // One plan per category; replacing it keeps the row (and its id) and swaps the tiers.
    await q.query(`
      CREATE TABLE commission_plans (
        id uuid PRIMARY KEY DEFAULT gen_random_uuid(),
        category text COLLATE "C" NOT NULL,
        created_at timestamptz(3) NOT NULL DEFAULT now(),
        updated_at timestamptz(3) NOT NULL DEFAULT now()
      )`);
    await q.query(`CREATE UNIQUE INDEX commission_plans_category_key ON commission_plans (category)`);
    await q.query(`
      CREATE TABLE commission_tiers (
        plan_id uuid NOT NULL REFERENCES commission_plans (id) ON DELETE CASCADE,
        min_achievement_pct numeric(7, 2) NOT NULL,
        rate_pct numeric(5, 2) NOT NULL,
        PRIMARY KEY (plan_id, min_achievement_pct),
        CONSTRAINT commission_tiers_min_check CHECK (min_achievement_pct >= 0),
        CONSTRAINT commission_tiers_rate_check CHECK (rate_pct >= 0 AND rate_pct <= 100)
      )`);

    await q.query(`
      CREATE TABLE commission_targets (
        id uuid PRIMARY KEY DEFAULT gen_random_uuid(),
        bm_id uuid NOT NULL,
        category text COLLATE "C" NOT NULL,
        month smallint NOT NULL,
        year int NOT NULL,
        target_amount numeric(17, 2) NOT NULL,
        created_at timestamptz(3) NOT NULL DEFAULT now(),
        updated_at timestamptz(3) NOT NULL DEFAULT now(),
        CONSTRAINT commission_targets_month_check CHECK (month BETWEEN 1 AND 12),
        CONSTRAINT commission_targets_amount_check CHECK (target_amount >= 0)
      )`);
    // The upsert's key, ordered so that team attainment reads one month's targets as one range.
    await q.query(
      `CREATE UNIQUE INDEX commission_targets_key ON commission_targets (year, month, bm_id, category)`,
    );
    await q.query(`CREATE INDEX commission_targets_created_idx ON commission_targets (created_at, id)`);

    await q.query(`
      CREATE TABLE collections (
        id uuid PRIMARY KEY DEFAULT gen_random_uuid(),
        bm_id uuid NOT NULL,
        category text COLLATE "C" NOT NULL,
        amount numeric(17, 2) NOT NULL,
        collected_at timestamptz(3) NOT NULL DEFAULT now(),
        created_at timestamptz(3) NOT NULL DEFAULT now(),
        CONSTRAINT collections_amount_check CHECK (amount > 0)
      )`);
    // Team attainment's month range and the list's keyset order (collected_at desc, id desc).
    await q.query(`CREATE INDEX collections_collected_idx ON collections (collected_at, id)`);
    await q.query(`CREATE INDEX collections_bm_idx ON collections (bm_id, collected_at, id)`);
  }

  async down(q: QueryRunner): Promise<void> {
    await q.query(`DROP TABLE collections`);
    await q.query(`DROP TABLE commission_targets`);
    await q.query(`DROP TABLE commission_tiers`);
    await q.query(`DROP TABLE commission_plans`);
  }
}
