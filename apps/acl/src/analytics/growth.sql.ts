import { bucketStart, dayAfter, nextBucket, type GrowthInterval } from './growth-range';

/**
 * The growth series in one statement over `user_join_days`, a per-UTC-day count of users.date_joined
 * (migration 1764000000003), rather than over `users`: generate_series lays out every bucket (so
 * gaps are zeros), the day rows of the buckets are summed per bucket, and the day rows before the
 * first bucket give the start of the running total. That reads one small row per day since the
 * first join (about 2,500 for seven years) however many users there are: 1.5-5 ms at a million
 * users, where counting `users` took 140-190 ms, most of it an index-only scan of everyone before
 * the first bucket (bench/results/acl-growth.json).
 *
 * The rollup is exact, not an estimate: a row-level trigger on users (AFTER INSERT, DELETE and
 * UPDATE OF date_joined) adds or subtracts one on the user's day in the writer's own transaction
 * with INSERT ... ON CONFLICT DO UPDATE (a move between days does both), so a rolled-back write
 * leaves no trace and a committed one shows exactly when the user does. Users of every status
 * count: status changes do not touch it. The price is on writes: concurrent joins on the same day
 * serialise briefly on that day's row (each waits for the previous writer's transaction to end,
 * a few ms when users are created through the API), and a bulk import of many users in one
 * transaction is much slower than a plain insert (see bench/acl-growth.mjs).
 *
 * Buckets are UTC calendar days, Monday weeks and months (date_trunc).
 *
 * $1 first bucket start, $2 last bucket start, $3 date_from, $4 day after date_to,
 * $5 'day' | 'week' | 'month', $6 end of the last bucket.
 */
export const GROWTH_SQL = `
WITH buckets AS (
  SELECT generate_series($1::timestamp, $2::timestamp, ('1 ' || $5)::interval) AS period_start
),
joined AS (
  SELECT date_trunc($5, d.day::timestamp) AS period_start,
         sum(d.users) AS all_users,
         coalesce(sum(d.users) FILTER (WHERE d.day >= $3::date AND d.day < $4::date), 0) AS new_users
    FROM user_join_days d
   WHERE d.day >= $1::date AND d.day < $6::date
   GROUP BY 1
),
earlier AS (
  SELECT coalesce(sum(d.users), 0) AS n FROM user_join_days d WHERE d.day < $1::date
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
