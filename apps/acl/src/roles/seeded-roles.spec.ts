import { CONTRACT_ROLES } from '@media/contracts';
import { SEEDED_ROLES } from '../database/migrations/1764000000001-seed-roles';

describe('seeded roles (docs/api/contract.md §1)', () => {
  it("seeds exactly the contract's roles (CONTRACT_ROLES) with exactly their names and permission sets", () => {
    const byCode = (roles: readonly { code: string; name: string; permissions: readonly string[] }[]) =>
      Object.fromEntries(
        roles.map((r) => [r.code, { name: r.name, permissions: [...r.permissions].sort() }]),
      );
    expect(byCode(SEEDED_ROLES)).toEqual(byCode(CONTRACT_ROLES));
  });
});
