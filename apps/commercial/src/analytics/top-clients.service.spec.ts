import { clampLimit } from './top-clients.service';

describe('clampLimit (docs/api/contract.md §4.8)', () => {
  it('defaults to 10 and clamps to 1..50 on both sides', () => {
    expect(clampLimit(undefined)).toBe(10);
    expect([clampLimit(-5), clampLimit(0), clampLimit(1), clampLimit(2)]).toEqual([1, 1, 1, 2]);
    expect([clampLimit(49), clampLimit(50), clampLimit(51), clampLimit(1e20)]).toEqual([49, 50, 50, 50]);
  });
});
