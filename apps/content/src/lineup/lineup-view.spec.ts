import { etagOf, ifMatchAllows, slotCount, weekdayOf } from './lineup-view';

describe('slotCount', () => {
  it('lists every date with slots, ascending, with its weekday, across a month boundary', () => {
    expect(
      slotCount([
        { air_date: '2026-03-02', count: 1 },
        { air_date: '2026-02-28', count: 3 },
        { air_date: '2026-03-01', count: 2 },
      ]),
    ).toEqual({
      '2026-02-28': { day: 'SAT', count: 3 },
      '2026-03-01': { day: 'SUN', count: 2 },
      '2026-03-02': { day: 'MON', count: 1 },
    });
    expect(
      Object.keys(
        slotCount([
          { air_date: '2026-03-02', count: 1 },
          { air_date: '2026-02-28', count: 1 },
        ]),
      ),
    ).toEqual(['2026-02-28', '2026-03-02']);
  });

  it('is empty for a schedule without slots', () => {
    expect(slotCount([])).toEqual({});
  });

  it.each([
    ['2024-02-29', 'THU'],
    ['2026-11-23', 'MON'],
    ['2026-11-29', 'SUN'],
    ['0001-01-01', 'MON'],
    ['9999-12-31', 'FRI'],
  ])('weekdayOf(%s) is %s', (date, day) => expect(weekdayOf(date)).toBe(day));
});

describe('If-Match', () => {
  it('allows a write without the header, with *, or with the current ETag among others', () => {
    expect(ifMatchAllows(undefined, 3)).toBe(true);
    expect(ifMatchAllows('*', 3)).toBe(true);
    expect(ifMatchAllows('"2", "3"', 3)).toBe(true);
    expect(ifMatchAllows(etagOf(3), 3)).toBe(true);
  });

  it('refuses a stale, weak, unquoted or empty tag', () => {
    expect(ifMatchAllows('"2"', 3)).toBe(false);
    expect(ifMatchAllows('W/"3"', 3)).toBe(false);
    expect(ifMatchAllows('3', 3)).toBe(false);
    expect(ifMatchAllows('', 3)).toBe(false);
  });
});
