import { bucketStart, dayAfter, nextBucket, type GrowthInterval } from './growth-range';

/**
 * Endpoint 13 in one statement: generate_series lays out every bucket (so gaps are zeros), one
 * range scan of the date_joined index counts the joins per bucket, and one index-only count
 * gives everyone who joined before the first bucket for the running total. Buckets are UTC
 * calendar days, Monday weeks and months (date_trunc).
 *
 * $1 first bucket start, $2 last bucket start, $3 date_from, $4 day after date_to,
 * $5 'day' | 'week' | 'month', $6 end of the last bucket.
 */
export const GROWTH_SQL = `
WITH buckets AS (
  SELECT generate_series($1::timestamp, $2::timestamp, ('1 ' || $5)::interval) AS period_start
),
joined AS (
  SELECT date_trunc($5, u.date_joined AT TIME ZONE 'UTC') AS period_start,
         count(*) AS all_users,
         count(*) FILTER (
           WHERE u.date_joined >= ($3::timestamp AT TIME ZONE 'UTC') AND u.date_joined < ($4::timestamp AT TIME ZONE 'UTC')
         ) AS new_users
    FROM users u
   WHERE u.date_joined >= ($1::timestamp AT TIME ZONE 'UTC') AND u.date_joined < ($6::timestamp AT TIME ZONE 'UTC')
   GROUP BY 1
),
earlier AS (
  SELECT count(*) AS n FROM users u WHERE u.date_joined < ($1::timestamp AT TIME ZONE 'UTC')
)
SELECT to_char(b.period_start, 'YYYY-MM-DD') AS period_start,
       coalesce(j.new_users, 0)::int AS new_users,
       (e.n + sum(coalesce(j.all_users, 0)) OVER (ORDER BY b.period_start))::int AS cumulative_users
  FROM buckets b
 CROSS JOIN earlier e
  LEFT JOIN joined j ON j.period_start = b.period_start
 ORDER BY b.period_start`;

/** The parameters of GROWTH_SQL for an inclusive range of dates. */
export function growthParams(dateFrom: string, dateTo: string, interval: GrowthInterval): string[] {
  const first = bucketStart(dateFrom, interval);
  const last = bucketStart(dateTo, interval);
  return [first, last, dateFrom, dayAfter(dateTo), interval, nextBucket(last, interval)];
}

export interface GrowthRow {
  period_start: string;
  new_users: number;
  cumulative_users: number;
}
