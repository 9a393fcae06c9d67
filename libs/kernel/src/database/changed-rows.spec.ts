import { changedRows } from './changed-rows';

describe('changedRows', () => {
  it('reads the rows of an UPDATE/DELETE answer ([rows, count])', () => {
    expect(changedRows([[{ id: 'a' }], 1])).toEqual([{ id: 'a' }]);
    expect(changedRows([[], 0])).toEqual([]);
  });

  it('answers no rows for anything else', () => {
    expect(changedRows([])).toEqual([]);
  });
});
