/**
 * The revenue summary in one statement over the rollups of migration 1764100000001, the lines of
 * CONFIRMED bookings summed per platform and category, per UTC day (revenue_days) and per month
 * (revenue_months) of the order's created_at, kept exact by triggers. The whole months of the
 * range come from revenue_months (a year: 12 x platforms x categories rows, however many lines),
 * the partial months at its ends from revenue_days; both are summed per month, platform and
 * category, which feeds GROUPING SETS for the total, each month, each platform and each
 * (platform, category); generate_series lays out every month so the trend has zeros where nothing
 * was booked. All arithmetic is numeric: sums of two-decimal amounts are exact, so each
 * platform's categories add up to the platform and the platforms to the total, to the cent.
 * Groups whose lines all left (a cancelled order) have lines = 0 and are not listed.
 *
 * $1 date_from, $2 date_to (inclusive dates), $3 platform or NULL.
 * Whole months are [fm, lm): fm the first month starting on or after $1, lm the first month
 * starting after $2. Days come from [$1, min(fm, $2 + 1)) and [max(lm, fm), $2].
 */
export const REVENUE_SQL = `
WITH bounds AS (
  SELECT (date_trunc('month', ($1::date - 1)::timestamp) + interval '1 month')::date AS fm,
         date_trunc('month', ($2::date + 1)::timestamp)::date AS lm
),
parts AS (
  SELECT m.month, m.platform, m.category, m.rate_card, m.booked, m.lines
    FROM revenue_months m, bounds b
   WHERE m.month >= b.fm AND m.month < b.lm AND ($3::text IS NULL OR m.platform = $3::text)
  UNION ALL
  SELECT date_trunc('month', d.day::timestamp)::date, d.platform, d.category, d.rate_card, d.booked, d.lines
    FROM revenue_days d, bounds b
   WHERE d.day >= $1::date AND d.day < least(b.fm, $2::date + 1)
     AND ($3::text IS NULL OR d.platform = $3::text)
  UNION ALL
  SELECT date_trunc('month', d.day::timestamp)::date, d.platform, d.category, d.rate_card, d.booked, d.lines
    FROM revenue_days d, bounds b
   WHERE d.day >= greatest(b.lm, b.fm) AND d.day <= $2::date
     AND ($3::text IS NULL OR d.platform = $3::text)
),
r AS (
  SELECT month, platform, category COLLATE "C" AS category,
         sum(rate_card) AS rate_card, sum(booked) AS booked, sum(lines) AS lines
    FROM parts
   GROUP BY 1, 2, 3
),
g AS (
  SELECT month, platform, category, sum(rate_card) AS rc, sum(booked) AS bk, sum(lines) AS n,
         GROUPING(month, platform, category) AS level
    FROM r
   GROUP BY GROUPING SETS ((), (month), (platform), (platform, category))
),
x AS (
  SELECT 'total' AS kind, NULL::text AS month, NULL::text AS platform, NULL::text AS category,
         coalesce(rc, 0) AS rc, coalesce(bk, 0) AS bk
    FROM g WHERE level = 7
  UNION ALL
  SELECT 'month', to_char(m, 'YYYY-MM'), NULL, NULL, coalesce(g.rc, 0), coalesce(g.bk, 0)
    FROM generate_series(date_trunc('month', $1::date), date_trunc('month', $2::date), interval '1 month') AS m
    LEFT JOIN g ON g.level = 3 AND g.month = m::date
  UNION ALL
  SELECT CASE level WHEN 5 THEN 'platform' ELSE 'category' END, NULL, platform, category, rc, bk
    FROM g WHERE level IN (4, 5) AND n > 0
)
SELECT kind, month, platform, category,
       round(rc, 2)::text AS rate_card,
       round(bk, 2)::text AS booked,
       round(rc - bk, 2)::text AS erosion,
       CASE WHEN rc = 0 THEN NULL ELSE round((rc - bk) * 100 / rc, 2)::text END AS erosion_pct
  FROM x
 ORDER BY kind, month, platform COLLATE "C", category COLLATE "C"`;

export interface RevenueRow {
  kind: 'total' | 'month' | 'platform' | 'category';
  month: string | null;
  platform: string | null;
  category: string | null;
  rate_card: string;
  booked: string;
  erosion: string;
  erosion_pct: string | null;
}
