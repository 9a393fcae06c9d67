import { SEEDED_ROLES } from '../database/migrations/1764000000001-seed-roles';
import { effectivePermissions } from './role-permissions';

describe('seeded roles (docs/api/contract.md §1)', () => {
  const table: Record<string, string[]> = {
    ADMIN: ['*'],
    EDITOR: [
      'lineup:read',
      'lineup:write',
      'story-categories:read',
      'story-categories:write',
      'tasks:read',
      'tasks:claim',
      'documents:write',
      'correspondents:read',
      'correspondents:invite',
    ],
    SALES: ['bookings:read', 'bookings:write', 'analytics:sales', 'lineup:read', 'documents:write'],
    FINANCE: ['bookings:read', 'analytics:sales', 'analytics:revenue', 'commissions:read-all'],
    CM: ['bookings:read', 'analytics:sales', 'commissions:read'],
    BM: ['bookings:read', 'analytics:sales'],
    CORRESPONDENT: ['story-categories:read', 'tasks:read', 'tasks:claim', 'documents:write'],
  };

  it('seeds exactly the roles of the contract with exactly their permission sets', () => {
    expect(Object.fromEntries(SEEDED_ROLES.map((r) => [r.code, [...r.permissions].sort()]))).toEqual(
      Object.fromEntries(Object.entries(table).map(([code, permissions]) => [code, [...permissions].sort()])),
    );
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
