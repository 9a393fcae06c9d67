import { Injectable } from '@nestjs/common';
import { InjectDataSource } from '@nestjs/typeorm';
import type { TopClientView } from '@media/contracts';
import type { DataSource } from 'typeorm';
import { toCents } from '@media/core';
import type { TopClientsQuery } from './dto/top-clients.query';
import { revenueShares } from './revenue-shares';
import { currentMonth, resolvePeriod } from './sales-period';
import { toTopClientView } from './top-client.view';
import { TOP_CLIENTS_SQL, topClientsParams, type TopClientsSqlRow } from './top-clients.sql';

export const DEFAULT_TOP_CLIENTS = 10;
export const MAX_TOP_CLIENTS = 50;

/** A limit clamped to 1..50 (docs/api/contract.md §4.8: out of range is not an error). */
export function clampLimit(limit: number | undefined): number {
  if (limit === undefined) return DEFAULT_TOP_CLIENTS;
  return Math.min(MAX_TOP_CLIENTS, Math.max(1, limit));
}

/** Top clients by WON revenue in a period. */
@Injectable()
export class TopClientsService {
  constructor(@InjectDataSource() private readonly dataSource: DataSource) {}

  async topClients(query: TopClientsQuery, now = new Date()): Promise<TopClientView[]> {
    const period = resolvePeriod(query.period ?? currentMonth(now), now);
    const rows: TopClientsSqlRow[] = await this.dataSource.query(
      TOP_CLIENTS_SQL,
      topClientsParams(period.parts, clampLimit(query.limit)),
    );
    const cents = rows.map((r) => toCents(r.revenue));
    const shares = revenueShares(cents);
    return rows.map((r, i) => toTopClientView(r, cents[i], shares[i]));
  }
}
