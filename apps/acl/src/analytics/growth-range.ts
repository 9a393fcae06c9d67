/** Bucket widths of the growth series. */
export const GROWTH_INTERVALS = ['day', 'week', 'month'] as const;
export type GrowthInterval = (typeof GROWTH_INTERVALS)[number];

/** A series longer than this is refused (docs/api/contract.md §4, the growth series). */
export const MAX_GROWTH_POINTS = 366;

const DAY_MS = 86_400_000;

function parse(date: string): Date {
  return new Date(`${date}T00:00:00Z`);
}

function format(date: Date): string {
  return date.toISOString().slice(0, 10);
}

/** The first day of the bucket holding `date` (UTC; weeks start on Monday), as PostgreSQL's date_trunc. */
export function bucketStart(date: string, interval: GrowthInterval): string {
  const d = parse(date);
  if (interval === 'month') return format(new Date(Date.UTC(d.getUTCFullYear(), d.getUTCMonth(), 1)));
  if (interval === 'week') return format(new Date(d.getTime() - ((d.getUTCDay() + 6) % 7) * DAY_MS));
  return date;
}

/** The first day of the next bucket. */
export function nextBucket(start: string, interval: GrowthInterval): string {
  const d = parse(start);
  if (interval === 'month') return format(new Date(Date.UTC(d.getUTCFullYear(), d.getUTCMonth() + 1, 1)));
  return format(new Date(d.getTime() + (interval === 'week' ? 7 : 1) * DAY_MS));
}

/** How many buckets cover `from`..`to`, both included. */
export function bucketCount(from: string, to: string, interval: GrowthInterval): number {
  const first = parse(bucketStart(from, interval));
  const last = parse(bucketStart(to, interval));
  if (interval === 'month') {
    return (
      (last.getUTCFullYear() - first.getUTCFullYear()) * 12 + (last.getUTCMonth() - first.getUTCMonth()) + 1
    );
  }
  const days = Math.round((last.getTime() - first.getTime()) / DAY_MS);
  return (interval === 'week' ? days / 7 : days) + 1;
}

/** The default range: from the first day of the month eleven months ago, to today (UTC). */
export function defaultGrowthRange(now: Date): { date_from: string; date_to: string } {
  const from = new Date(Date.UTC(now.getUTCFullYear(), now.getUTCMonth() - 11, 1));
  return { date_from: format(from), date_to: format(now) };
}

/** The day after `date`: the exclusive end of a range that includes `date`. */
export function dayAfter(date: string): string {
  return format(new Date(parse(date).getTime() + DAY_MS));
}
