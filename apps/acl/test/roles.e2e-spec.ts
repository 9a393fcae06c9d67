/** The roles of docs/api/contract.md §1 as acl lists them, through the gateway. */
import { CONTRACT_ROLES } from '@media/contracts';
import { acl, admin } from './support';

describe('roles', () => {
  it('lists the seeded roles with the exact permission sets of docs/api/contract.md §1', async () => {
    const res = await acl('/api/v1/roles', { token: await admin() });
    expect(res.status).toBe(200);
    // Byte order of the code, each role's permissions in the contract's order.
    const expected = [...CONTRACT_ROLES]
      .sort((a, b) => (a.code < b.code ? -1 : 1))
      .map((role) => ({ code: role.code, name: role.name, permissions: [...role.permissions] }));
    expect(res.body).toEqual(expected);
  });

  it('gives the bootstrap administrator the ADMIN role, whose token grants *', async () => {
    const me = await acl('/api/v1/users/me', { token: await admin() });
    expect(me.body.roles).toEqual(['ADMIN']);
  });
});
