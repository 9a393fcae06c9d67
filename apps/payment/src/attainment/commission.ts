import { Money } from '@media/core';

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
  const amount = new Money(collected);
  if (target === null || new Money(target).isZero()) {
    return { achievement_pct: null, commission_rate: '0.00', commission_amount: '0.00' };
  }
  const achievement = amount.times(100).dividedBy(target);
  let rate = new Money(0);
  let reached: Money | undefined;
  for (const tier of tiers) {
    const min = new Money(tier.min_achievement_pct);
    if (achievement.greaterThanOrEqualTo(min) && (reached === undefined || min.greaterThan(reached))) {
      reached = min;
      rate = new Money(tier.rate_pct);
    }
  }
  return {
    achievement_pct: achievement.toFixed(2),
    commission_rate: rate.toFixed(2),
    commission_amount: amount.times(rate).dividedBy(100).toFixed(2),
  };
}
