/**
 * Endpoint 10 in one statement over `revenue_days` (migration 1764100000001), the lines of
 * CONFIRMED bookings summed per UTC day of the order's created_at, platform and category and kept
 * exact by triggers. One scan of the range's day rows (about 365 x platforms x categories a
 * year, however many lines) feeds GROUPING SETS for the total, each month, each platform and each
 * (platform, category); generate_series lays out every month so the trend has zeros where nothing
 * was booked. All arithmetic is numeric: sums of two-decimal amounts are exact, so each
 * platform's categories add up to the platform and the platforms to the total, to the cent.
 * Groups whose lines all left (a cancelled order) have lines = 0 and are not listed.
 *
 * $1 date_from, $2 date_to (inclusive dates), $3 platform or NULL.
 */
export const REVENUE_SQL = `
WITH r AS (
  SELECT date_trunc('month', d.day)::date AS month, d.platform, d.category COLLATE "C" AS category,
         d.rate_card, d.booked, d.lines
    FROM revenue_days d
   WHERE d.day >= $1::date AND d.day <= $2::date AND ($3::text IS NULL OR d.platform = $3::text)
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
