/** Failures older than this are forgotten: the delay is for bursts, not a permanent penalty. */
export const FAILURE_MEMORY_MS = 15 * 60_000;
export const MAX_LOGIN_DELAY_MS = 1_000;
/**
 * How long an attempt holds its email at most: the longest delay plus a generous verification
 * time. It is released as soon as the attempt ends; the lease only matters when a replica dies
 * mid-attempt, and then the email is free again after this long.
 */
export const ATTEMPT_LEASE_MS = 10_000;
const FIRST_DELAY_MS = 50;

/**
 * How long a login attempt for one email waits before it is checked, given that email's recent
 * failures: none for the first try, then 50, 100, 200, 400, 800 ms, then 1 s for good
 * (docs/api/contract.md §1: a growing delay of at most 1 s, never a lockout).
 */
export function loginDelayMs(failures: number, lastFailedAt: Date | null, now: Date): number {
  if (failures <= 0 || !lastFailedAt || now.getTime() - lastFailedAt.getTime() > FAILURE_MEMORY_MS) return 0;
  return Math.min(MAX_LOGIN_DELAY_MS, FIRST_DELAY_MS * 2 ** (failures - 1));
}
