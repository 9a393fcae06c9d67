import { ValidationFailed } from '@media/core';

/** One slice of client_won_totals a period adds (+1) or takes away (-1). */
export interface PeriodPart {
  /** `d` day, `m` month, `q` quarter, `y` year (period is the first day of it). */
  grain: 'd' | 'm' | 'q' | 'y';
  period: string;
  sign: 1 | -1;
}

/**
 * A period of the top-clients ranking: its inclusive days and the summary slices that add up to it: always
 * exactly one slice added first, then any taken away.
 */
export interface SalesPeriod {
  from: string;
  to: string;
  parts: PeriodPart[];
}

const MONTH = /^(\d{4})-(\d{2})$/;
const QUARTER = /^Q([1-4])-(\d{4})$/;
const YTD = /^YTD-(\d{4})$/;

const pad = (n: number, width = 2) => String(n).padStart(width, '0');
const day = (year: number, month: number, d: number) => `${pad(year, 4)}-${pad(month)}-${pad(d)}`;
const daysIn = (year: number, month: number) => new Date(Date.UTC(year, month, 0)).getUTCDate();
const firstOf = (year: number, month: number) => day(year, month, 1);
const lastOf = (year: number, month: number) => day(year, month, daysIn(year, month));

function invalid(msg: string): ValidationFailed {
  return ValidationFailed.at(['query', 'period'], msg, 'value_error');
}

/** `YYYY-MM` of a UTC instant: the default period. */
export function currentMonth(now: Date): string {
  return `${pad(now.getUTCFullYear(), 4)}-${pad(now.getUTCMonth() + 1)}`;
}

/**
 * Reads a period (`YYYY-MM`, `Qn-YYYY`, `YTD-YYYY`, case-sensitive; years 1..9999) against
 * today's UTC date, or throws the contract's 422 at `["query","period"]` (docs/api/contract.md §4.8).
 *
 * The parts are what the query reads: a month, a quarter and a past year are one slice each. This
 * year to date is the year's slice less the months after the current one and the days after
 * today in the current month (deals may be dated ahead), so it too ranks one slice.
 */
export function resolvePeriod(text: string, now: Date): SalesPeriod {
  const today = now.toISOString().slice(0, 10);
  const thisYear = now.getUTCFullYear();
  const thisMonth = now.getUTCMonth() + 1;
  let match = MONTH.exec(text);
  if (match) {
    const [year, month] = [Number(match[1]), Number(match[2])];
    if (year < 1 || month < 1 || month > 12) throw invalid(`'${text}' is not a month (YYYY-MM)`);
    return {
      from: firstOf(year, month),
      to: lastOf(year, month),
      parts: [{ grain: 'm', period: firstOf(year, month), sign: 1 }],
    };
  }
  match = QUARTER.exec(text);
  if (match) {
    const [quarter, year] = [Number(match[1]), Number(match[2])];
    if (year < 1) throw invalid(`'${text}' has no year 0`);
    const first = (quarter - 1) * 3 + 1;
    return {
      from: firstOf(year, first),
      to: lastOf(year, first + 2),
      parts: [{ grain: 'q', period: firstOf(year, first), sign: 1 }],
    };
  }
  match = YTD.exec(text);
  if (match) {
    const year = Number(match[1]);
    if (year < 1) throw invalid(`'${text}' has no year 0`);
    if (year > thisYear) throw invalid(`${text} lies in the future`);
    const parts: PeriodPart[] = [{ grain: 'y', period: firstOf(year, 1), sign: 1 }];
    if (year < thisYear) return { from: firstOf(year, 1), to: lastOf(year, 12), parts };
    for (let m = thisMonth + 1; m <= 12; m++) parts.push({ grain: 'm', period: firstOf(year, m), sign: -1 });
    for (let d = now.getUTCDate() + 1; d <= daysIn(year, thisMonth); d++) {
      parts.push({ grain: 'd', period: day(year, thisMonth, d), sign: -1 });
    }
    return { from: firstOf(year, 1), to: today, parts };
  }
  throw invalid(`'${text}' is not a period: use YYYY-MM, Qn-YYYY or YTD-YYYY`);
}
