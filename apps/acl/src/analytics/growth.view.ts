import type { GrowthInterval } from './growth-range';

/** One bucket of the series. */
export interface GrowthRow {
  period_start: string;
  new_users: number;
  cumulative_users: number;
}

/** The growth series. */
export interface GrowthSeries {
  interval: GrowthInterval;
  date_from: string;
  date_to: string;
  total_new_users: number;
  series: GrowthRow[];
}
