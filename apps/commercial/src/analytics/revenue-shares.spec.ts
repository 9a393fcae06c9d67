import fc from 'fast-check';
import { toCents } from '@media/core';
import { revenueShares } from './revenue-shares';

const sum = (shares: (string | null)[]) => shares.reduce((s, v) => s + toCents(v ?? '0'), 0n);

describe('revenueShares (docs/api/contract.md §4.8)', () => {
  it('gives a single row 100.00', () => {
    expect(revenueShares([12345n])).toEqual(['100.00']);
  });

  it('gives the extra 0.01 of three equal revenues to the highest-ranked row', () => {
    expect(revenueShares([100n, 100n, 100n])).toEqual(['33.34', '33.33', '33.33']);
  });

  it('gives the extra 0.01s to the largest remainders first', () => {
    // exact: 66.6666..., 16.6666..., 16.6666...: floors 66.66 + 16.66 + 16.66 = 99.98
    expect(revenueShares([400n, 100n, 100n])).toEqual(['66.67', '16.67', '16.66']);
    // exact: 50.005, 49.995: one 0.01 missing, remainders equal, so the first row gets it
    expect(revenueShares([10001n, 9999n])).toEqual(['50.01', '49.99']);
  });

  it('keeps zero revenues at 0.00 beside others, and has no shares of a zero total', () => {
    expect(revenueShares([500n, 0n])).toEqual(['100.00', '0.00']);
    expect(revenueShares([0n, 0n])).toEqual([null, null]);
    expect(revenueShares([])).toEqual([]);
  });

  it('always sums to exactly 100.00, each share within 0.01 of its exact value', () => {
    fc.assert(
      fc.property(
        fc.array(fc.bigInt({ min: 0n, max: 10n ** 17n }), { minLength: 1, maxLength: 50 }),
        fc.integer({ min: 1, max: 50 }),
        (revenues, limit) => {
          const rows = [...revenues].sort((a, b) => (a > b ? -1 : a < b ? 1 : 0)).slice(0, limit);
          const total = rows.reduce((s, r) => s + r, 0n);
          fc.pre(total > 0n);
          const shares = revenueShares(rows);
          expect(sum(shares)).toBe(10_000n);
          shares.forEach((share, i) => {
            // |share - exact| < 0.01  <=>  |share_hundredths * total - r * 10000| < total
            const diff = toCents(share!) * total - rows[i] * 10_000n;
            expect(diff < total && -diff < total).toBe(true);
          });
        },
      ),
      { numRuns: 500 },
    );
  });
});
