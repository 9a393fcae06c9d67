import {
  allows,
  assertMayHold,
  inCandidateGroups,
  missingPermissions,
  permissionCodes,
  TRANSITIONS,
} from './task-rules';

describe('task rules', () => {
  it('allows each transition only from its listed statuses', () => {
    const statuses = ['OPEN', 'CLAIMED', 'IN_PROGRESS', 'COMPLETED', 'CANCELLED'] as const;
    const allowed = Object.fromEntries(
      (Object.keys(TRANSITIONS) as (keyof typeof TRANSITIONS)[]).map((name) => [
        name,
        statuses.filter((s) => allows(name, s)),
      ]),
    );
    expect(allowed).toEqual({
      unclaim: ['CLAIMED', 'IN_PROGRESS'],
      start: ['CLAIMED'],
      complete: ['CLAIMED', 'IN_PROGRESS'],
      cancel: ['OPEN', 'CLAIMED', 'IN_PROGRESS'],
    });
  });

  it('names the snapshot permissions a user lacks; * grants all', () => {
    expect(missingPermissions(['a', 'b', 'c'], ['b'])).toEqual(['a', 'c']);
    expect(missingPermissions(['a', 'b'], ['a', 'b', 'x'])).toEqual([]);
    expect(missingPermissions(['a'], ['*'])).toEqual([]);
    expect(missingPermissions([], [])).toEqual([]);
  });

  it('keeps the distinct codes of a snapshot in order', () => {
    expect(permissionCodes([{ code: 'b' }, { code: 'a' }, { code: 'b' }])).toEqual(['b', 'a']);
  });

  it('lets anyone claim without candidate groups, else members of one of them (ids compared case-insensitively)', () => {
    const g1 = '0b6c2a3e-0000-4000-8000-000000000001';
    const g2 = '0b6c2a3e-0000-4000-8000-000000000002';
    expect(inCandidateGroups([], [])).toBe(true);
    expect(inCandidateGroups([g1, g2], [g2.toUpperCase()])).toBe(true);
    expect(inCandidateGroups([g1], [g2])).toBe(false);
    expect(inCandidateGroups([g1], [])).toBe(false);
  });

  it('refuses a holder lacking a snapshot permission, then one outside the candidate groups, with 403', () => {
    const task = { requiredPermissions: ['lineup:write'], candidateGroups: ['G1'] };
    const check = (permissions: string[], groups: string[]) => () =>
      assertMayHold(task, 'u1', { permissions, groups });
    expect(check(['tasks:claim'], ['g1'])).toThrow(
      expect.objectContaining({ status: 403, detail: expect.stringContaining('lineup:write') }),
    );
    expect(check(['lineup:write'], ['g2'])).toThrow(
      expect.objectContaining({ status: 403, detail: expect.stringContaining('candidate groups') }),
    );
    expect(check(['*'], ['g1'])).not.toThrow();
    expect(() =>
      assertMayHold({ requiredPermissions: [], candidateGroups: [] }, 'u1', { permissions: [], groups: [] }),
    ).not.toThrow();
  });
});
