import { CONTRACT_ROLES } from '@media/contracts';
import { SEEDED_ROLES } from '../database/migrations/1764000000001-seed-roles';
import { effectivePermissions } from './role-permissions';

describe('seeded roles (docs/api/contract.md §1)', () => {
  it("seeds exactly the contract's roles (CONTRACT_ROLES) with exactly their names and permission sets", () => {
    const byCode = (roles: readonly { code: string; name: string; permissions: readonly string[] }[]) =>
      Object.fromEntries(
        roles.map((r) => [r.code, { name: r.name, permissions: [...r.permissions].sort() }]),
      );
    expect(byCode(SEEDED_ROLES)).toEqual(byCode(CONTRACT_ROLES));
  });
});

describe('effectivePermissions', () => {
  it('is the sorted union of the roles, each permission once', () => {
    expect(effectivePermissions([{ permissions: ['b', 'a'] }, { permissions: ['a', 'c'] }])).toEqual([
      'a',
      'b',
      'c',
    ]);
  });

  it('is empty for a user without roles', () => {
    expect(effectivePermissions([])).toEqual([]);
  });

  it('keeps the wildcard of ADMIN', () => {
    expect(effectivePermissions([{ permissions: ['*'] }, { permissions: ['tasks:read'] }])).toEqual([
      '*',
      'tasks:read',
    ]);
  });
});
