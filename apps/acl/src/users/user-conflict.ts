import { Conflict } from '@media/core';
import { uniqueViolation } from '@media/kernel';

/** Maps a unique index hit on users to the 409 a client can act on. */
export function userConflict(error: unknown): Conflict | undefined {
  const index = uniqueViolation(error);
  if (index === 'users_email_key')
    return new Conflict('A user with this email already exists.', 'email_taken');
  if (index === 'users_employee_number_key')
    return new Conflict('A user with this employee number already exists.', 'employee_number_taken');
  return undefined;
}
