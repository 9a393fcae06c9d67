/**
 * The escalation level of a task `elapsedMs` past its `due_at` (CONTRACT §4.4): 0 until it is
 * past due, then 1, plus one per full `ESCALATION_INTERVAL` elapsed since, at most `maxLevel`
 * (`ESCALATION_MAX_LEVEL`). The SQL of the job computes the same in the database; this is its
 * reference, unit-tested.
 */
export function escalationLevel(elapsedMs: number, intervalMs: number, maxLevel: number = MAX_LEVEL): number {
  if (!(elapsedMs > 0)) return 0;
  return Math.min(Math.floor(elapsedMs / intervalMs) + 1, maxLevel);
}

/** The highest `ESCALATION_MAX_LEVEL` accepted (the level is an `int` column). */
export const MAX_LEVEL = 1_000_000;
