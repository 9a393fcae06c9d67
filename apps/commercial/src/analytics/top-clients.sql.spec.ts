import { resolvePeriod } from './sales-period';
import { topClientsParams } from './top-clients.sql';

describe('topClientsParams', () => {
  const now = new Date('2026-11-28T12:00:00Z');

  it('ranks one slice, less the later ones of this year to date', () => {
    expect(topClientsParams(resolvePeriod('YTD-2026', now).parts, 10)).toEqual([
      'y',
      '2026-01-01',
      ['m', 'd', 'd'],
      ['2026-12-01', '2026-11-29', '2026-11-30'],
      10,
    ]);
    expect(topClientsParams(resolvePeriod('Q4-2025', now).parts, 3)).toEqual(['q', '2025-10-01', [], [], 3]);
  });

  it('refuses parts that are not one slice first', () => {
    expect(() => topClientsParams([], 10)).toThrow();
    expect(() => topClientsParams([{ grain: 'd', period: '2026-01-01', sign: -1 }], 10)).toThrow();
  });
});
