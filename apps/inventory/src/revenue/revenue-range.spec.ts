import { ValidationFailed } from '@media/core';
import { MAX_TREND_MONTHS, monthsBetween, revenueRange } from './revenue-range';

const issue = (work: () => unknown) => {
  try {
    work();
  } catch (error) {
    return (error as ValidationFailed).issues;
  }
  throw new Error('accepted');
};

describe('revenueRange (docs/api/contract.md §4.10)', () => {
  const now = new Date('2024-02-10T23:30:00Z');

  it('defaults to the current UTC month, leap day included', () => {
    expect(revenueRange({}, now)).toEqual({ dateFrom: '2024-02-01', dateTo: '2024-02-29' });
    expect(revenueRange({}, new Date('2023-12-31T23:59:59Z'))).toEqual({
      dateFrom: '2023-12-01',
      dateTo: '2023-12-31',
    });
  });

  it('fills the missing bound from the current month', () => {
    expect(revenueRange({ date_from: '2024-01-15' }, now)).toEqual({
      dateFrom: '2024-01-15',
      dateTo: '2024-02-29',
    });
    expect(revenueRange({ date_to: '2024-02-05' }, now)).toEqual({
      dateFrom: '2024-02-01',
      dateTo: '2024-02-05',
    });
  });

  it('accepts a one-day range and refuses an inverted one at the bound given', () => {
    expect(revenueRange({ date_from: '2024-03-01', date_to: '2024-03-01' }, now).dateTo).toBe('2024-03-01');
    expect(issue(() => revenueRange({ date_from: '2024-03-02', date_to: '2024-03-01' }, now))).toEqual([
      { loc: ['query', 'date_to'], msg: expect.any(String), type: 'value_error' },
    ]);
    expect(issue(() => revenueRange({ date_from: '2024-03-01' }, now))[0].loc).toEqual([
      'query',
      'date_from',
    ]);
    expect(issue(() => revenueRange({ date_to: '2024-01-31' }, now))[0].loc).toEqual(['query', 'date_to']);
  });

  it('counts calendar months touched and limits the trend to 1200 of them', () => {
    expect(monthsBetween('2024-12-31', '2025-01-01')).toBe(2);
    expect(monthsBetween('2024-01-01', '2024-12-31')).toBe(12);
    expect(revenueRange({ date_from: '1900-01-01', date_to: '1999-12-31' }, now).dateFrom).toBe('1900-01-01');
    expect(monthsBetween('1900-01-01', '1999-12-31')).toBe(MAX_TREND_MONTHS);
    expect(issue(() => revenueRange({ date_from: '1900-01-01', date_to: '2000-01-01' }, now))[0].loc).toEqual(
      ['query', 'date_to'],
    );
  });
});
