import { formatMoney } from '@media/core';
import { commission } from './commission';

const PLAN = [
  { min_achievement_pct: '50', rate_pct: '2' },
  { min_achievement_pct: '100', rate_pct: '5.5' },
  { min_achievement_pct: '80', rate_pct: '3.25' },
];

describe('commission (docs/api/contract.md §4.9)', () => {
  it('takes the highest tier reached, at exactly its threshold', () => {
    expect(commission('1000.00', '1000.00', PLAN)).toEqual({
      achievement_pct: '100.00',
      commission_rate: '5.50',
      commission_amount: '55.00',
    });
    expect(commission('1000.00', '800.00', PLAN)).toEqual({
      achievement_pct: '80.00',
      commission_rate: '3.25',
      commission_amount: '26.00',
    });
    expect(commission('1000.00', '799.99', PLAN)).toEqual({
      achievement_pct: '80.00',
      commission_rate: '2.00',
      commission_amount: '16.00',
    });
  });

  it('compares the exact achievement, not the rounded one', () => {
    // 99.999...% shows as 100.00 but has not reached the 100% tier
    const row = commission('3000.00', '2999.99', PLAN);
    expect(row.achievement_pct).toBe('100.00');
    expect(row.commission_rate).toBe('3.25');
  });

  it('rounds half-up to cents', () => {
    // 0.10 * 5.5% = 0.0055 -> 0.01; 1/3 of a target -> 33.33
    expect(commission('0.10', '0.10', PLAN).commission_amount).toBe('0.01');
    expect(commission('3.00', '1.00', PLAN).achievement_pct).toBe('33.33');
    // 2/3 = 66.666... -> 66.67
    expect(commission('3.00', '2.00', PLAN).achievement_pct).toBe('66.67');
    // 12.35 * 3.25% = 0.401375 -> 0.40; 120.50 * 2% = 2.41
    expect(commission('15.00', '12.35', PLAN).commission_amount).toBe('0.40');
    expect(commission('200.00', '120.50', PLAN).commission_amount).toBe('2.41');
  });

  it('has no achievement and no commission for a zero or absent target', () => {
    const none = { achievement_pct: null, commission_rate: '0.00', commission_amount: '0.00' };
    expect(commission('0.00', '500.00', PLAN)).toEqual(none);
    expect(commission(null, '500.00', PLAN)).toEqual(none);
  });

  it('pays nothing below the first tier, without a plan, or without collections', () => {
    expect(commission('1000.00', '499.99', PLAN)).toEqual({
      achievement_pct: '50.00',
      commission_rate: '0.00',
      commission_amount: '0.00',
    });
    expect(commission('1000.00', '2000.00', [])).toEqual({
      achievement_pct: '200.00',
      commission_rate: '0.00',
      commission_amount: '0.00',
    });
    expect(commission('1000.00', '0', PLAN)).toEqual({
      achievement_pct: '0.00',
      commission_rate: '0.00',
      commission_amount: '0.00',
    });
  });

  it('a 0% tier applies from nothing collected', () => {
    expect(commission('1000.00', '0', [{ min_achievement_pct: '0', rate_pct: '1' }]).commission_rate).toBe(
      '1.00',
    );
  });

  it('keeps full precision on large amounts', () => {
    expect(commission('999999999999999.99', '999999999999999.99', PLAN)).toEqual({
      achievement_pct: '100.00',
      commission_rate: '5.50',
      commission_amount: '55000000000000.00',
    });
    expect(formatMoney('0')).toBe('0.00');
    expect(formatMoney('12.5')).toBe('12.50');
  });
});
