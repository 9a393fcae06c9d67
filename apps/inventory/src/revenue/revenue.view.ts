import type { BookingPlatform, RevenueFigures, RevenueSummaryView } from '@media/contracts';
import type { RevenueRow } from './revenue.sql';

const ZERO: RevenueFigures = { rate_card: '0.00', booked: '0.00', erosion: '0.00', erosion_pct: null };

const figures = (row: RevenueRow): RevenueFigures => ({
  rate_card: row.rate_card,
  booked: row.booked,
  erosion: row.erosion,
  erosion_pct: row.erosion_pct,
});

/**
 * The summary from REVENUE_SQL's rows, which come ordered by kind, then month / platform /
 * category (byte order): the total, the months, the platforms, and each platform's categories.
 */
export function toRevenueSummaryView(rows: readonly RevenueRow[]): RevenueSummaryView {
  const summary: RevenueSummaryView = { totals: ZERO, trend: [], breakdown: [] };
  const platforms = new Map<string, RevenueSummaryView['breakdown'][number]>();
  for (const row of rows) {
    if (row.kind === 'total') summary.totals = figures(row);
    else if (row.kind === 'month') summary.trend.push({ month: row.month ?? '', ...figures(row) });
    else if (row.kind === 'platform') {
      const entry = { platform: row.platform as BookingPlatform, ...figures(row), categories: [] };
      platforms.set(entry.platform, entry);
      summary.breakdown.push(entry);
    }
  }
  for (const row of rows) {
    if (row.kind !== 'category') continue;
    platforms.get(row.platform ?? '')?.categories.push({ category: row.category ?? '', ...figures(row) });
  }
  return summary;
}
