import { QueryFailedError } from 'typeorm';

/** The name of the unique index a write collided with, or undefined for any other failure. */
export function uniqueViolation(error: unknown): string | undefined {
  if (!(error instanceof QueryFailedError)) return undefined;
  const driverError = error.driverError as { code?: string; constraint?: string } | undefined;
  return driverError?.code === '23505' ? (driverError.constraint ?? '') : undefined;
}
