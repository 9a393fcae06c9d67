import { ValidationFailed } from '@media/core';
import { currentMonth, resolvePeriod } from './sales-period';

const NOW = new Date('2026-11-26T03:00:00Z');

function refusal(text: string) {
  try {
    resolvePeriod(text, NOW);
  } catch (error) {
    return (error as ValidationFailed).issues;
  }
  throw new Error(`${text} was accepted`);
}

describe('resolvePeriod (docs/api/contract.md §4.8)', () => {
  it('reads a month as its month row', () => {
    expect(resolvePeriod('2024-02', NOW)).toEqual({
      from: '2024-02-01',
      to: '2024-02-29',
      parts: [{ grain: 'm', period: '2024-02-01', sign: 1 }],
    });
    expect(resolvePeriod('2030-12', NOW).to).toBe('2030-12-31');
  });

  it('reads a quarter as its quarter row, Q1 being January to March', () => {
    expect(resolvePeriod('Q1-2026', NOW)).toEqual({
      from: '2026-01-01',
      to: '2026-03-31',
      parts: [{ grain: 'q', period: '2026-01-01', sign: 1 }],
    });
    expect(resolvePeriod('Q4-2025', NOW)).toMatchObject({ from: '2025-10-01', to: '2025-12-31' });
  });

  it('reads a past year to date as the whole year', () => {
    expect(resolvePeriod('YTD-2025', NOW)).toEqual({
      from: '2025-01-01',
      to: '2025-12-31',
      parts: [{ grain: 'y', period: '2025-01-01', sign: 1 }],
    });
  });

  it('reads this year to date as the year less the later months and the days after today', () => {
    expect(resolvePeriod('YTD-2026', NOW)).toEqual({
      from: '2026-01-01',
      to: '2026-11-26',
      parts: [
        { grain: 'y', period: '2026-01-01', sign: 1 },
        { grain: 'm', period: '2026-12-01', sign: -1 },
        { grain: 'd', period: '2026-11-27', sign: -1 },
        { grain: 'd', period: '2026-11-28', sign: -1 },
        { grain: 'd', period: '2026-11-29', sign: -1 },
        { grain: 'd', period: '2026-11-30', sign: -1 },
      ],
    });
  });

  it('subtracts nothing on December 31 and eleven months on January 31', () => {
    expect(resolvePeriod('YTD-2026', new Date('2026-12-31T23:59:59Z')).parts).toEqual([
      { grain: 'y', period: '2026-01-01', sign: 1 },
    ]);
    const january = resolvePeriod('YTD-2027', new Date('2027-01-31T00:00:00Z')).parts;
    expect(january.filter((p) => p.grain === 'm')).toHaveLength(11);
    expect(january.filter((p) => p.grain === 'd')).toHaveLength(0);
  });

  it('refuses a future year to date, and anything not in the three formats, at ["query","period"]', () => {
    for (const text of [
      'YTD-2027',
      '2026-13',
      '2026-00',
      'Q5-2026',
      'Q0-2026',
      'q1-2026',
      'ytd-2026',
      '0000-01',
      'Q1-0000',
      'YTD-0000',
      '2026-1',
      '26-01',
      '2026-01-01',
      '',
      ' 2026-01',
    ]) {
      expect(refusal(text)).toEqual([
        { loc: ['query', 'period'], msg: expect.any(String), type: 'value_error' },
      ]);
    }
  });

  it('defaults to the current UTC month', () => {
    expect(currentMonth(new Date('2026-01-01T00:30:00+01:00'))).toBe('2025-12');
    expect(currentMonth(NOW)).toBe('2026-11');
  });
});
