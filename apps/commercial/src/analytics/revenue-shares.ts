import { formatCents } from '@media/core';

/**
 * Each revenue's share of their total, in percent with two decimals, by largest remainder: every
 * share starts at its exact value rounded down to 0.01, then the 0.01s still missing to reach
 * exactly 100.00 go to the largest remainders, the higher-ranked (earlier) row first among equal
 * ones (docs/api/contract.md §4.8). Integer arithmetic on cents, so nothing is lost to binary floats. Each
 * share is within 0.01 of its exact value. A zero total has no shares (`null`, docs/api/contract.md §3).
 */
export function revenueShares(revenueCents: readonly bigint[]): (string | null)[] {
  const total = revenueCents.reduce((sum, r) => sum + r, 0n);
  if (total === 0n) return revenueCents.map(() => null);
  const floors = revenueCents.map((r) => (r * 10_000n) / total);
  const remainders = revenueCents.map((r) => (r * 10_000n) % total);
  let missing = 10_000n - floors.reduce((sum, f) => sum + f, 0n);
  const byRemainder = remainders
    .map((remainder, index) => ({ remainder, index }))
    .sort((a, b) => (a.remainder === b.remainder ? a.index - b.index : a.remainder > b.remainder ? -1 : 1));
  for (const { index } of byRemainder) {
    if (missing === 0n) break;
    floors[index] += 1n;
    missing -= 1n;
  }
  return floors.map(formatCents);
}
