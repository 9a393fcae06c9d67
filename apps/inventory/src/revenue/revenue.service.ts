import { Injectable } from '@nestjs/common';
import { InjectDataSource } from '@nestjs/typeorm';
import type { BookingPlatform, RevenueFigures, RevenueSummary } from '@media/contracts';
import type { DataSource } from 'typeorm';
import type { RevenueQuery } from './dto/revenue.query';
import { revenueRange } from './revenue-range';
import { REVENUE_SQL, type RevenueRow } from './revenue.sql';

const ZERO: RevenueFigures = { rate_card: '0.00', booked: '0.00', erosion: '0.00', erosion_pct: null };

const figures = (row: RevenueRow): RevenueFigures => ({
  rate_card: row.rate_card,
  booked: row.booked,
  erosion: row.erosion,
  erosion_pct: row.erosion_pct,
});

/** Booked revenue against the rate card (endpoint 10); every figure is computed in SQL. */
@Injectable()
export class RevenueService {
  constructor(@InjectDataSource() private readonly dataSource: DataSource) {}

  async summary(query: RevenueQuery): Promise<RevenueSummary> {
    const { dateFrom, dateTo } = revenueRange(query);
    const rows = (await this.dataSource.query(REVENUE_SQL, [
      dateFrom,
      dateTo,
      query.platform ?? null,
    ])) as RevenueRow[];
    const summary: RevenueSummary = { totals: ZERO, trend: [], breakdown: [] };
    const platforms = new Map<string, RevenueSummary['breakdown'][number]>();
    // Rows come ordered by kind, then month / platform / category (byte order).
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
}
