import { bucketCount, bucketStart, dayAfter, defaultGrowthRange, nextBucket } from './growth-range';

describe('bucketStart', () => {
  it('starts weeks on Monday', () => {
    expect(bucketStart('2024-02-29', 'week')).toBe('2024-02-26'); // a Thursday
    expect(bucketStart('2024-02-26', 'week')).toBe('2024-02-26'); // a Monday
    expect(bucketStart('2024-03-03', 'week')).toBe('2024-02-26'); // a Sunday
  });

  it('starts months on the first', () => {
    expect(bucketStart('2024-02-29', 'month')).toBe('2024-02-01');
  });

  it('keeps days as they are', () => {
    expect(bucketStart('2024-02-29', 'day')).toBe('2024-02-29');
  });

  it('crosses year boundaries for weeks', () => {
    expect(bucketStart('2025-01-01', 'week')).toBe('2024-12-30');
  });
});

describe('nextBucket', () => {
  it('steps over the leap day', () => {
    expect(nextBucket('2024-02-28', 'day')).toBe('2024-02-29');
    expect(nextBucket('2024-02-29', 'day')).toBe('2024-03-01');
    expect(nextBucket('2024-02-01', 'month')).toBe('2024-03-01');
    expect(nextBucket('2024-12-01', 'month')).toBe('2025-01-01');
    expect(nextBucket('2024-02-26', 'week')).toBe('2024-03-04');
  });
});

describe('bucketCount', () => {
  it('counts both ends', () => {
    expect(bucketCount('2024-01-01', '2024-01-01', 'day')).toBe(1);
    expect(bucketCount('2024-01-01', '2024-12-31', 'day')).toBe(366);
    expect(bucketCount('2023-01-01', '2024-01-01', 'day')).toBe(366);
    expect(bucketCount('2023-01-01', '2024-01-02', 'day')).toBe(367);
  });

  it('counts partial weeks and months at both ends', () => {
    expect(bucketCount('2024-02-29', '2024-03-04', 'week')).toBe(2);
    expect(bucketCount('2024-01-31', '2024-02-01', 'month')).toBe(2);
    expect(bucketCount('2000-01-15', '2030-07-01', 'month')).toBe(367);
  });
});

describe('defaultGrowthRange', () => {
  it('runs from the first of the month eleven months ago to today', () => {
    expect(defaultGrowthRange(new Date('2025-03-15T23:59:00Z'))).toEqual({
      date_from: '2024-04-01',
      date_to: '2025-03-15',
    });
    expect(defaultGrowthRange(new Date('2025-12-01T00:00:00Z'))).toEqual({
      date_from: '2025-01-01',
      date_to: '2025-12-01',
    });
  });
});

describe('dayAfter', () => {
  it('handles month ends and the leap day', () => {
    expect(dayAfter('2024-02-28')).toBe('2024-02-29');
    expect(dayAfter('2024-02-29')).toBe('2024-03-01');
    expect(dayAfter('2024-12-31')).toBe('2025-01-01');
  });
});
