import { atLocal, isTimeZone, localTime, nextDigestAt, nextLocal, quietPeriodAt } from './quiet-hours';

const at = (iso: string) => new Date(iso);
const day = (iso: string) => Date.parse(`${iso}T00:00:00Z`);
const night = { start: '22:00', end: '07:00' };

describe('isTimeZone', () => {
  it('accepts IANA names and UTC, refuses unknown ones', () => {
    expect(isTimeZone('UTC')).toBe(true);
    expect(isTimeZone('Europe/Berlin')).toBe(true);
    expect(isTimeZone('America/New_York')).toBe(true);
    expect(isTimeZone('Mars/Olympus')).toBe(false);
    expect(isTimeZone('')).toBe(false);
    expect(isTimeZone(42)).toBe(false);
  });
});

describe('atLocal', () => {
  it('reads a local time with the offset of that day', () => {
    expect(atLocal(day('2026-07-01'), 8 * 60, 'Europe/Berlin').toISOString()).toBe(
      '2026-07-01T06:00:00.000Z',
    );
    expect(atLocal(day('2026-12-01'), 8 * 60, 'Europe/Berlin').toISOString()).toBe(
      '2026-12-01T07:00:00.000Z',
    );
    expect(atLocal(day('2026-12-01'), 8 * 60, 'UTC').toISOString()).toBe('2026-12-01T08:00:00.000Z');
  });

  it('moves a time skipped by the spring change forward by the gap', () => {
    // 2026-03-29: Berlin goes from 02:00 CET to 03:00 CEST.
    expect(atLocal(day('2026-03-29'), 2 * 60 + 30, 'Europe/Berlin').toISOString()).toBe(
      '2026-03-29T01:30:00.000Z',
    );
    expect(localTime(at('2026-03-29T01:30:00Z'), 'Europe/Berlin').minutes).toBe(3 * 60 + 30);
  });

  it('takes the first of a time repeated by the autumn change', () => {
    // 2026-10-25: Berlin goes from 03:00 CEST back to 02:00 CET.
    expect(atLocal(day('2026-10-25'), 2 * 60 + 30, 'Europe/Berlin').toISOString()).toBe(
      '2026-10-25T00:30:00.000Z',
    );
  });
});

describe('quietPeriodAt', () => {
  it('holds a range crossing midnight before and after midnight, and not outside it', () => {
    const period = { start: at('2026-06-10T22:00:00Z'), end: at('2026-06-11T07:00:00Z') };
    expect(quietPeriodAt(at('2026-06-10T21:59:59Z'), 'UTC', night)).toBeNull();
    expect(quietPeriodAt(at('2026-06-10T22:00:00Z'), 'UTC', night)).toEqual(period);
    expect(quietPeriodAt(at('2026-06-10T23:30:00Z'), 'UTC', night)).toEqual(period);
    expect(quietPeriodAt(at('2026-06-11T03:00:00Z'), 'UTC', night)).toEqual(period);
    expect(quietPeriodAt(at('2026-06-11T07:00:00Z'), 'UTC', night)).toBeNull();
    expect(quietPeriodAt(at('2026-06-11T12:00:00Z'), 'UTC', night)).toBeNull();
  });

  it('holds a range within one day', () => {
    const lunch = { start: '12:00', end: '13:30' };
    expect(quietPeriodAt(at('2026-06-11T12:10:00Z'), 'UTC', lunch)?.end).toEqual(at('2026-06-11T13:30:00Z'));
    expect(quietPeriodAt(at('2026-06-11T13:30:00Z'), 'UTC', lunch)).toBeNull();
    expect(quietPeriodAt(at('2026-06-11T11:59:00Z'), 'UTC', lunch)).toBeNull();
  });

  it('keeps 22:00 to 07:00 in Europe/Berlin across the October change (a ten-hour night)', () => {
    // Sat 24 Oct 22:00 CEST = 20:00Z; Sun 25 Oct 07:00 CET = 06:00Z.
    const period = { start: at('2026-10-24T20:00:00Z'), end: at('2026-10-25T06:00:00Z') };
    expect(quietPeriodAt(at('2026-10-24T19:59:00Z'), 'Europe/Berlin', night)).toBeNull();
    expect(quietPeriodAt(at('2026-10-24T20:00:00Z'), 'Europe/Berlin', night)).toEqual(period);
    expect(quietPeriodAt(at('2026-10-25T00:30:00Z'), 'Europe/Berlin', night)).toEqual(period);
    expect(quietPeriodAt(at('2026-10-25T01:30:00Z'), 'Europe/Berlin', night)).toEqual(period);
    // 06:30Z is 07:30 CET: over; 05:30Z is 06:30 CET: still quiet.
    expect(quietPeriodAt(at('2026-10-25T05:30:00Z'), 'Europe/Berlin', night)).toEqual(period);
    expect(quietPeriodAt(at('2026-10-25T06:30:00Z'), 'Europe/Berlin', night)).toBeNull();
  });

  it('keeps 22:00 to 07:00 in Europe/Berlin across the March change (an eight-hour night, nine otherwise)', () => {
    const period = { start: at('2026-03-28T21:00:00Z'), end: at('2026-03-29T05:00:00Z') };
    expect(quietPeriodAt(at('2026-03-29T01:30:00Z'), 'Europe/Berlin', night)).toEqual(period);
    expect(quietPeriodAt(at('2026-03-29T05:00:00Z'), 'Europe/Berlin', night)).toBeNull();
  });

  it('starts a range whose start is skipped by the change at the moved-forward time', () => {
    const skipped = { start: '02:30', end: '05:00' };
    expect(quietPeriodAt(at('2026-03-29T01:10:00Z'), 'Europe/Berlin', skipped)).toBeNull();
    expect(quietPeriodAt(at('2026-03-29T01:30:00Z'), 'Europe/Berlin', skipped)?.end).toEqual(
      at('2026-03-29T03:00:00Z'),
    );
  });

  it('is never quiet without quiet hours', () => {
    expect(quietPeriodAt(at('2026-06-11T03:00:00Z'), 'UTC', null)).toBeNull();
  });
});

describe('nextLocal and nextDigestAt', () => {
  it('finds the next local time, today or tomorrow', () => {
    expect(nextLocal(at('2026-06-11T07:59:00Z'), 'UTC', '08:00')).toEqual(at('2026-06-11T08:00:00Z'));
    expect(nextLocal(at('2026-06-11T08:00:00Z'), 'UTC', '08:00')).toEqual(at('2026-06-12T08:00:00Z'));
    // 23:00Z is 08:00 in Tokyo: the next one is a day later.
    expect(nextLocal(at('2026-06-11T23:00:00Z'), 'Asia/Tokyo', '08:00')).toEqual(at('2026-06-12T23:00:00Z'));
  });

  it('follows the zone across a change: 08:00 Berlin is 06:00Z in summer and 07:00Z in winter', () => {
    expect(nextLocal(at('2026-10-24T07:00:00Z'), 'Europe/Berlin', '08:00')).toEqual(
      at('2026-10-25T07:00:00Z'),
    );
  });

  it('moves a digest time skipped by the change forward', () => {
    expect(nextLocal(at('2026-03-28T12:00:00Z'), 'Europe/Berlin', '02:30')).toEqual(
      at('2026-03-29T01:30:00Z'),
    );
  });

  it('moves a digest due during quiet hours to their end', () => {
    expect(nextDigestAt(at('2026-06-11T00:00:00Z'), 'UTC', '06:00', night)).toEqual(
      at('2026-06-11T07:00:00Z'),
    );
    expect(nextDigestAt(at('2026-06-11T00:00:00Z'), 'UTC', '08:00', night)).toEqual(
      at('2026-06-11T08:00:00Z'),
    );
    expect(nextDigestAt(at('2026-06-11T07:00:00Z'), 'UTC', '06:00', night)).toEqual(
      at('2026-06-12T07:00:00Z'),
    );
  });
});
