import Decimal from 'decimal.js';

/**
 * Money and percentages, one way for every app (docs/api/contract.md §3: decimal text with two
 * fraction digits, rounded half-up). Arithmetic on them is decimal, never binary floats:
 * `Decimal` for ratios and products, whole cents (`bigint`) where sums and shares must be exact.
 */
export const Money = Decimal.clone({ precision: 60, rounding: Decimal.ROUND_HALF_UP });
export type Money = InstanceType<typeof Money>;

/** Decimal text (or a number) as shown: two fraction digits, half-up ("0" -> "0.00", "12.5" -> "12.50"). */
export function formatMoney(value: Decimal.Value): string {
  return new Money(value).toFixed(2);
}

/** A non-negative decimal text with at most two fraction digits, in cents. */
export function toCents(amount: string): bigint {
  const [whole, fraction = ''] = amount.split('.');
  return BigInt(whole) * 100n + BigInt(fraction.padEnd(2, '0').slice(0, 2) || '0');
}

/** Cents (or hundredths of a percent) as decimal text with two fraction digits. */
export function formatCents(value: bigint): string {
  const sign = value < 0n ? '-' : '';
  const abs = value < 0n ? -value : value;
  return `${sign}${abs / 100n}.${String(abs % 100n).padStart(2, '0')}`;
}
