import type { BookingStatus } from '@media/contracts';
import { Conflict } from '@media/core';

/** The status changes docs/api/contract.md §4.12 allows; anything else is a 409 naming the current status. */
const ALLOWED: Record<BookingStatus, readonly BookingStatus[]> = {
  DRAFT: ['CONFIRMED', 'CANCELLED'],
  CONFIRMED: ['CANCELLED'],
  CANCELLED: [],
};

export function canMove(from: BookingStatus, to: BookingStatus): boolean {
  return ALLOWED[from].includes(to);
}

/** Throws 409 `invalid_status_transition` unless `from -> to` is allowed. */
export function assertTransition(id: string, from: BookingStatus, to: BookingStatus): void {
  if (canMove(from, to)) return;
  const allowed = ALLOWED[from];
  const hint = allowed.length ? `it can only become ${allowed.join(' or ')}` : 'it can no longer change';
  throw new Conflict(
    `Booking ${id} is ${from}; it cannot become ${to} (${hint}).`,
    'invalid_status_transition',
  );
}
