import type { PeriodPart } from './sales-period';

/**
 * Top clients in one statement over client_won_totals (migration 1764100000000): the WON deals'
 * count and revenue per client per day, month, quarter and year, kept exact by a trigger on
 * deals. Every period is one slice of it ($1, $2: a month, a quarter or a year), less, for this
 * year to date, the slices after today ($3, $4: later months and days of this year).
 *
 * The ranking reads few rows whatever the number of clients: the slice's rows are walked in
 * revenue order on client_won_totals_rank_idx (index only) and the walk stops after the limit
 * (WITH TIES, so a tie at the cut is settled by name below). The later clients are excluded by
 * an array computed once (an InitPlan), not by an anti-join, which would make the planner read
 * and sort the whole slice. Clients with deals dated after today
 * (`later`, usually few) are taken out of that walk and added back with their revenue reduced.
 * The union is the true top of the period: a client of the top is either one of those, or
 * among the first rows of the walk. Clients left with no WON deal drop out; the rest are ranked
 * by revenue, then name in byte order (the column's collation is "C"), and cut to the limit.
 *
 * $1 grain and $2 period of the slice, $3 grains and $4 periods of the slices taken away, $5 limit.
 */
export const TOP_CLIENTS_SQL = `
WITH later AS (
  SELECT t.client_id, sum(t.deals) AS deals, sum(t.revenue) AS revenue
    FROM unnest($3::"char"[], $4::date[]) AS p (grain, period)
    JOIN client_won_totals t ON t.grain = p.grain AND t.period = p.period
   GROUP BY t.client_id
),
untouched AS (
  SELECT t.client_id, t.deals, t.revenue
    FROM client_won_totals t
   WHERE t.grain = $1::"char" AND t.period = $2::date AND t.deals > 0
     AND t.client_id <> ALL (ARRAY(SELECT l.client_id FROM later l))
   ORDER BY t.revenue DESC
   FETCH FIRST ($5::int) ROWS WITH TIES
),
touched AS (
  SELECT t.client_id, t.deals - l.deals AS deals, t.revenue - l.revenue AS revenue
    FROM later l
    JOIN client_won_totals t ON t.grain = $1::"char" AND t.period = $2::date AND t.client_id = l.client_id
)
SELECT c.name AS client_name, c.category, r.deals::int AS deal_count, r.revenue::text AS revenue
  FROM (SELECT * FROM untouched UNION ALL SELECT * FROM touched WHERE deals > 0) r
  JOIN clients c ON c.id = r.client_id
 ORDER BY r.revenue DESC, c.name
 LIMIT $5`;

/** The parameters of TOP_CLIENTS_SQL: the period's first part is its slice, the rest are taken away. */
export function topClientsParams(
  parts: PeriodPart[],
  limit: number,
): [string, string, string[], string[], number] {
  const [slice, ...later] = parts;
  if (slice?.sign !== 1 || later.some((p) => p.sign !== -1)) {
    throw new Error('A period is one slice, then the slices taken away from it');
  }
  return [slice.grain, slice.period, later.map((p) => p.grain), later.map((p) => p.period), limit];
}

export interface TopClientsSqlRow {
  client_name: string;
  category: string;
  deal_count: number;
  revenue: string;
}
