import { ValidationFailed } from '@media/core';
import { assertTransition, canMove } from './booking-status';

describe('booking status transitions (docs/api/contract.md §4.12)', () => {
  it.each([
    ['DRAFT', 'CONFIRMED'],
    ['DRAFT', 'CANCELLED'],
    ['CONFIRMED', 'CANCELLED'],
  ] as const)('allows %s -> %s', (from, to) => {
    expect(canMove(from, to)).toBe(true);
    expect(() => assertTransition('b1', from, to)).not.toThrow();
  });

  it.each([
    ['DRAFT', 'DRAFT'],
    ['CONFIRMED', 'DRAFT'],
    ['CONFIRMED', 'CONFIRMED'],
    ['CANCELLED', 'DRAFT'],
    ['CANCELLED', 'CONFIRMED'],
    ['CANCELLED', 'CANCELLED'],
  ] as const)('refuses %s -> %s with a 409 naming the current status', (from, to) => {
    expect(canMove(from, to)).toBe(false);
    try {
      assertTransition('b1', from, to);
      throw new ValidationFailed([]);
    } catch (error) {
      expect(error).toMatchObject({ status: 409, code: 'invalid_status_transition' });
      expect((error as Error).message).toContain(`is ${from}`);
    }
  });
});
