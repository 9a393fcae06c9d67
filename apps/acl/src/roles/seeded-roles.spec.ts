import { CONTRACT_ROLES } from '@media/contracts';
import { SEEDED_ROLES } from '../database/migrations/1764000000001-seed-roles';
import { AUDITOR_ROLE } from '../database/migrations/1764900000200-seed-auditor-role';

describe('seeded roles (docs/api/contract.md §1)', () => {
  it("seeds exactly the contract's roles (CONTRACT_ROLES) with exactly their names and permission sets, AUDITOR in a later migration", () => {
    const byCode = (roles: readonly { code: string; name: string; permissions: readonly string[] }[]) =>
      Object.fromEntries(
        roles.map((r) => [r.code, { name: r.name, permissions: [...r.permissions].sort() }]),
      );
    expect(byCode([...SEEDED_ROLES, AUDITOR_ROLE])).toEqual(byCode(CONTRACT_ROLES));
  });
});

describe('the AUDITOR role (CONTRACT §8.3)', () => {
  it('grants audit:read and nothing else', () => {
    expect(CONTRACT_ROLES.find((role) => role.code === 'AUDITOR')?.permissions).toEqual(['audit:read']);
    expect(AUDITOR_ROLE.permissions).toEqual(['audit:read']);
  });
});
