import { Forbidden, hasPermission } from '@media/core';
import type { TaskStatus } from '@media/contracts';

/** The transitions besides the claim (docs/api/contract.md §4.4); anything else is a 409 naming the status. */
export const TRANSITIONS = {
  unclaim: { from: ['CLAIMED', 'IN_PROGRESS'], to: 'OPEN', verb: 'unclaimed' },
  start: { from: ['CLAIMED'], to: 'IN_PROGRESS', verb: 'started' },
  complete: { from: ['CLAIMED', 'IN_PROGRESS'], to: 'COMPLETED', verb: 'completed' },
  cancel: { from: ['OPEN', 'CLAIMED', 'IN_PROGRESS'], to: 'CANCELLED', verb: 'cancelled' },
} as const satisfies Record<string, { from: readonly TaskStatus[]; to: TaskStatus; verb: string }>;

export type TransitionName = keyof typeof TRANSITIONS;

export function allows(name: TransitionName, status: TaskStatus): boolean {
  return (TRANSITIONS[name].from as readonly TaskStatus[]).includes(status);
}

/** The permission codes of a snapshot the holder of `permissions` lacks (`*` grants all). */
export function missingPermissions(required: readonly string[], permissions: readonly string[]): string[] {
  return required.filter((code) => !hasPermission({ permissions: [...permissions] }, code));
}

/** Distinct codes of a snapshot, in first-seen order. */
export function permissionCodes(snapshot: readonly { code: string }[]): string[] {
  return [...new Set(snapshot.map((p) => p.code))];
}

/** Whether a user in `groups` may claim a task limited to `candidates` (none: anyone). */
export function inCandidateGroups(candidates: readonly string[], groups: readonly string[]): boolean {
  if (candidates.length === 0) return true;
  const mine = new Set(groups.map((g) => g.toLowerCase()));
  return candidates.some((g) => mine.has(g.toLowerCase()));
}

/**
 * The 403s of a claim or a reassignment (docs/api/contract.md §4.4, §7.2): the user must hold every
 * permission of the task's snapshot and be in one of its candidate groups, when it has any.
 */
export function assertMayHold(
  task: { requiredPermissions: readonly string[]; candidateGroups: readonly string[] },
  userId: string,
  user: { permissions: readonly string[]; groups: readonly string[] },
): void {
  const missing = missingPermissions(task.requiredPermissions, user.permissions);
  if (missing.length > 0) {
    throw new Forbidden(`User ${userId} lacks the permission(s) this task requires: ${missing.join(', ')}.`);
  }
  if (!inCandidateGroups(task.candidateGroups, user.groups)) {
    throw new Forbidden(`User ${userId} is in none of this task's candidate groups.`);
  }
}
