import { etagOf, ifMatchAllows, slotCount, weekdayOf } from './lineup.view';
import { isStorableDate } from './dto/slot.dto';

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

describe('isStorableDate', () => {
  it.each([
    ['2024-02-29', true],
    ['2023-02-29', false],
    ['1900-02-29', false],
    ['2000-02-29', true],
    ['2026-04-31', false],
    ['2026-12-31', true],
    ['2026-13-01', false],
    ['2026-00-10', false],
    ['0000-01-01', false],
    ['0001-01-01', true],
    ['9999-12-31', true],
    ['2026-1-01', false],
    [' 2026-01-01', false],
    [20260101, false],
  ])('isStorableDate(%s) is %s', (value, ok) => expect(isStorableDate(value)).toBe(ok));
});
