import { ValidationFailed } from '@media/core';

/** The longest range the trend lists (one point per month): 100 years. */
export const MAX_TREND_MONTHS = 1200;

export interface RevenueRange {
  dateFrom: string;
  dateTo: string;
}

const iso = (date: Date) => date.toISOString().slice(0, 10);

/**
 * `date_from`..`date_to` (inclusive UTC days); each defaults to its end of the current UTC month
 * (docs/api/contract.md §3, §4.10). An inverted range is refused at the bound the client gave.
 */
export function revenueRange(
  query: { date_from?: string; date_to?: string },
  now = new Date(),
): RevenueRange {
  const year = now.getUTCFullYear();
  const month = now.getUTCMonth();
  const dateFrom = query.date_from ?? iso(new Date(Date.UTC(year, month, 1)));
  const dateTo = query.date_to ?? iso(new Date(Date.UTC(year, month + 1, 0)));
  if (dateFrom > dateTo) {
    const at = query.date_to !== undefined ? 'date_to' : 'date_from';
    throw ValidationFailed.at(['query', at], 'date_to must be on or after date_from');
  }
  if (monthsBetween(dateFrom, dateTo) > MAX_TREND_MONTHS) {
    throw ValidationFailed.at(
      ['query', 'date_to'],
      `The range may span at most ${MAX_TREND_MONTHS} calendar months`,
    );
  }
  return { dateFrom, dateTo };
}

/** Calendar months touched by an inclusive range (2024-12-31..2025-01-01 touches 2). */
export function monthsBetween(dateFrom: string, dateTo: string): number {
  const [fy, fm] = dateFrom.split('-').map(Number);
  const [ty, tm] = dateTo.split('-').map(Number);
  return (ty - fy) * 12 + (tm - fm) + 1;
}
