import { formatCents, formatMoney, Money, toCents } from './money';

describe('money', () => {
  it('formats decimal text with two fraction digits, rounding half-up', () => {
    expect(formatMoney('0')).toBe('0.00');
    expect(formatMoney('12.5')).toBe('12.50');
    expect(formatMoney('0.005')).toBe('0.01');
    expect(formatMoney(new Money('2').dividedBy(3))).toBe('0.67');
  });

  it('converts decimal text to cents and back exactly', () => {
    expect(toCents('1250.5')).toBe(125050n);
    expect(toCents('7')).toBe(700n);
    expect(formatCents(125050n)).toBe('1250.50');
    expect(formatCents(5n)).toBe('0.05');
    expect(formatCents(-5n)).toBe('-0.05');
  });
});
