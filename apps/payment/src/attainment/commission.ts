import Decimal from 'decimal.js';

/** Exact enough for any numeric(17,2) ratio; rounding is half-up (docs/api/contract.md §3). */
const Dec = Decimal.clone({ precision: 60, rounding: Decimal.ROUND_HALF_UP });

export interface Tier {
  min_achievement_pct: string;
  rate_pct: string;
}

export interface Commission {
  achievement_pct: string | null;
  commission_rate: string;
  commission_amount: string;
}

/**
 * The figures of one attainment row (docs/api/contract.md §4.9), in decimal arithmetic:
 * achievement = collected / target * 100 (null when the target is 0 or absent); the rate is the
 * `rate_pct` of the highest tier whose threshold the exact (unrounded) achievement reaches,
 * "0.00" without a plan, without an achievement or below the first tier; the amount is
 * collected * rate / 100. Shown values are rounded half-up to two decimals.
 */
export function commission(target: string | null, collected: string, tiers: readonly Tier[]): Commission {
  const amount = new Dec(collected);
  if (target === null || new Dec(target).isZero()) {
    return { achievement_pct: null, commission_rate: '0.00', commission_amount: '0.00' };
  }
  const achievement = amount.times(100).dividedBy(target);
  let rate = new Dec(0);
  let reached: Decimal | undefined;
  for (const tier of tiers) {
    const min = new Dec(tier.min_achievement_pct);
    if (achievement.greaterThanOrEqualTo(min) && (reached === undefined || min.greaterThan(reached))) {
      reached = min;
      rate = new Dec(tier.rate_pct);
    }
  }
  return {
    achievement_pct: achievement.toFixed(2),
    commission_rate: rate.toFixed(2),
    commission_amount: amount.times(rate).dividedBy(100).toFixed(2),
  };
}

/** Money text with two decimals (a numeric sum may come back as "0" or "12.5"). */
export function money(value: string): string {
  return new Dec(value).toFixed(2);
}
