import type { TopClientView } from '@media/contracts';
import { formatCents } from '@media/core';
import type { TopClientsSqlRow } from './top-clients.sql';

/** One ranked client: its revenue (in cents, as summed) and its share of the ranking's total. */
export function toTopClientView(row: TopClientsSqlRow, cents: bigint, share: string | null): TopClientView {
  return {
    client_name: row.client_name,
    category: row.category,
    deal_count: row.deal_count,
    total_contracted_revenue: formatCents(cents),
    revenue_share_pct: share,
  };
}
