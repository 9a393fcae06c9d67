import { canonicalTimeZone } from './time-zones';

describe('canonicalTimeZone', () => {
  it.each([
    ['utc', 'UTC'],
    ['UTC', 'UTC'],
    ['etc/utc', 'Etc/UTC'],
    ['europe/berlin', 'Europe/Berlin'],
    ['EUROPE/BERLIN', 'Europe/Berlin'],
    ['us/pacific', 'US/Pacific'],
    ['asia/kolkata', 'Asia/Kolkata'],
    ['asia/calcutta', 'Asia/Calcutta'],
    ['america/argentina/buenos_aires', 'America/Argentina/Buenos_Aires'],
    ['etc/gmt+5', 'Etc/GMT+5'],
  ])('spells %s as the tz database does: %s (links kept as links)', (given, spelled) => {
    expect(canonicalTimeZone(given)).toBe(spelled);
  });

  it('knows no zone that is not one', () => {
    for (const value of ['Mars/Olympus', '', 'Europe', 'Europe/Berlin ', 42, null]) {
      expect(canonicalTimeZone(value)).toBeUndefined();
    }
  });
});
