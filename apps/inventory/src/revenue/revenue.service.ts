import { Injectable } from '@nestjs/common';
import { InjectDataSource } from '@nestjs/typeorm';
import type { RevenueSummaryView } from '@media/contracts';
import type { DataSource } from 'typeorm';
import type { RevenueQuery } from './dto/revenue.query';
import { revenueRange } from './revenue-range';
import { REVENUE_SQL, type RevenueRow } from './revenue.sql';
import { toRevenueSummaryView } from './revenue.view';

/** Booked revenue against the rate card (the revenue summary); every figure is computed in SQL. */
@Injectable()
export class RevenueService {
  constructor(@InjectDataSource() private readonly dataSource: DataSource) {}

  async summary(query: RevenueQuery): Promise<RevenueSummaryView> {
    const { dateFrom, dateTo } = revenueRange(query);
    const rows = (await this.dataSource.query(REVENUE_SQL, [
      dateFrom,
      dateTo,
      query.platform ?? null,
    ])) as RevenueRow[];
    return toRevenueSummaryView(rows);
  }
}
