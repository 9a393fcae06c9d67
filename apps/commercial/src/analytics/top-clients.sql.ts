import type { PeriodPart } from './sales-period';

/**
 * Endpoint 8 in one statement over client_won_totals (migration 1764100000000): the WON deals'
 * count and revenue per client per day, month and year, kept exact by a trigger on deals. The
 * period's parts (sales-period.ts) are joined on the table's primary key, each adding or taking
 * away its rows, and summed per client: a month or a past year to date reads one row per client
 * that sold in it, a quarter three, this year to date the year's row less the few later-dated
 * ones. Clients left with no WON deal drop out; the rest are ranked by revenue, then name in
 * byte order (the column's collation is "C"), and cut to the limit.
 *
 * $1 grains, $2 periods, $3 signs (parallel arrays of the parts), $4 limit.
 */
export const TOP_CLIENTS_SQL = `
WITH parts AS (
  SELECT * FROM unnest($1::"char"[], $2::date[], $3::int[]) AS p (grain, period, sign)
),
totals AS (
  SELECT t.client_id, sum(t.deals * p.sign)::int AS deal_count, sum(t.revenue * p.sign) AS revenue
    FROM parts p
    JOIN client_won_totals t ON t.grain = p.grain AND t.period = p.period
   GROUP BY t.client_id
)
SELECT c.name AS client_name, c.category, s.deal_count, s.revenue::text AS revenue
  FROM totals s
  JOIN clients c ON c.id = s.client_id
 WHERE s.deal_count > 0
 ORDER BY s.revenue DESC, c.name
 LIMIT $4`;

/** The parameters of TOP_CLIENTS_SQL. */
export function topClientsParams(parts: PeriodPart[], limit: number): [string[], string[], number[], number] {
  return [parts.map((p) => p.grain), parts.map((p) => p.period), parts.map((p) => p.sign), limit];
}

export interface TopClientsSqlRow {
  client_name: string;
  category: string;
  deal_count: number;
  revenue: string;
}
