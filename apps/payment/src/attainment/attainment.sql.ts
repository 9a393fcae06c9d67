/**
 * Team attainment's figures in one statement: the month's targets (a range of commission_targets_key)
 * and the month's collections summed per BM and category (a range of collections_collected_idx),
 * full-joined so a BM with only one of the two still has its row, each with its category's plan
 * tiers. Money stays numeric and travels as text.
 *
 * $1 year, $2 month (the UTC month), $3 the BM ids the caller may see, or NULL for all.
 */
export const ATTAINMENT_SQL = `
WITH bounds AS (
  SELECT make_timestamptz($1, $2, 1, 0, 0, 0, 'UTC') AS from_at,
         make_timestamptz($1, $2, 1, 0, 0, 0, 'UTC') + interval '1 month' AS to_at
),
t AS (
  SELECT bm_id, category, target_amount
    FROM commission_targets
   WHERE year = $1 AND month = $2 AND ($3::uuid[] IS NULL OR bm_id = ANY($3::uuid[]))
),
c AS (
  SELECT bm_id, category, sum(amount) AS collected
    FROM collections, bounds
   WHERE collected_at >= bounds.from_at AND collected_at < bounds.to_at
     AND ($3::uuid[] IS NULL OR bm_id = ANY($3::uuid[]))
   GROUP BY bm_id, category
),
rows AS (
  SELECT coalesce(t.bm_id, c.bm_id) AS bm_id,
         coalesce(t.category, c.category) AS category,
         t.target_amount,
         coalesce(c.collected, 0) AS collected
    FROM t
    FULL JOIN c ON c.bm_id = t.bm_id AND c.category = t.category
),
plans AS (
  SELECT p.category,
         json_agg(json_build_object('min_achievement_pct', k.min_achievement_pct::text,
                                    'rate_pct', k.rate_pct::text)
                  ORDER BY k.min_achievement_pct) AS tiers
    FROM commission_plans p
    JOIN commission_tiers k ON k.plan_id = p.id
   WHERE p.category IN (SELECT category FROM rows)
   GROUP BY p.category
)
SELECT r.bm_id, r.category, r.target_amount::text AS target_amount, r.collected::text AS collected,
       coalesce(p.tiers, '[]'::json) AS tiers
  FROM rows r
  LEFT JOIN plans p ON p.category = r.category`;

export interface AttainmentSqlRow {
  bm_id: string;
  category: string;
  target_amount: string | null;
  collected: string;
  tiers: { min_achievement_pct: string; rate_pct: string }[];
}

/** The parameters of ATTAINMENT_SQL for a month, seen by all (`scope` null) or some BMs. */
export function attainmentParams(
  year: number,
  month: number,
  scope: string[] | null,
): [number, number, string[] | null] {
  return [year, month, scope];
}
