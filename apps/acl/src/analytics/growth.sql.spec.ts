import { growthParams } from './growth.sql';

describe('growthParams', () => {
  it('spans whole buckets for the series but only the asked days for new users', () => {
    // [first bucket, last bucket, date_from, day after date_to, unit, end of last bucket]
    expect(growthParams('2024-02-29', '2024-03-04', 'week')).toEqual([
      '2024-02-26',
      '2024-03-04',
      '2024-02-29',
      '2024-03-05',
      'week',
      '2024-03-11',
    ]);
    expect(growthParams('2023-12-15', '2024-03-01', 'month')).toEqual([
      '2023-12-01',
      '2024-03-01',
      '2023-12-15',
      '2024-03-02',
      'month',
      '2024-04-01',
    ]);
    expect(growthParams('2024-02-29', '2024-02-29', 'day')).toEqual([
      '2024-02-29',
      '2024-02-29',
      '2024-02-29',
      '2024-03-01',
      'day',
      '2024-03-01',
    ]);
  });
});
