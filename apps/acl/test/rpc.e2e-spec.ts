/**
 * acl's NATS responders (docs/api/contract.md §5) called from a plain NATS client, as another app's Nest
 * client would: the request is Nest's packet `{id, pattern, data}` whose `data` is our
 * `{data, meta}` envelope; the reply is `{id, response, isDisposed}` or `{id, err, isDisposed}`.
 */
import { randomUUID } from 'node:crypto';
import { CONTRACT_ROLES } from '@media/contracts';
import { rpcTestClientForFile } from '@media/testing';
import { acl, admin, createUser, system } from './support';

const rpc = rpcTestClientForFile(() => system().env.NATS_URL);

const ask = <T = any>(subject: string, data: unknown) => rpc.ask<T>(subject, data);

describe('acl.users.get-many', () => {
  it('answers the profiles of known ids in the order asked, unknown and malformed ids absent, no credentials', async () => {
    const manager = await createUser({ first_name: 'Boss', last_name: 'One' });
    const group = await acl('/api/v1/groups', {
      token: await admin(),
      json: { name: `rpc-${randomUUID()}` },
    });
    const a = await createUser({
      first_name: 'Ana',
      last_name: 'A',
      employee_number: `R-${randomUUID().slice(0, 6)}`,
      roles: ['CM'],
      manager_id: manager.id,
      groups: [group.body.id],
    });
    const b = await createUser({ first_name: 'Bea', last_name: 'B' });
    const reply = await ask('acl.users.get-many', { ids: [b.id, randomUUID(), a.id, 'not-a-uuid', b.id] });
    expect(reply.err).toBeUndefined();
    expect(reply.isDisposed).toBe(true);
    expect(reply.response).toEqual([
      {
        id: b.id,
        name: 'Bea B',
        email: b.email,
        first_name: 'Bea',
        last_name: 'B',
        employee_number: null,
        manager_id: null,
        status: 'ACTIVE',
        roles: [],
        permissions: [],
        groups: [],
      },
      {
        id: a.id,
        name: 'Ana A',
        email: a.email,
        first_name: 'Ana',
        last_name: 'A',
        employee_number: a.body.employee_number,
        manager_id: manager.id,
        status: 'ACTIVE',
        roles: ['CM'],
        permissions: ['analytics:sales', 'bookings:read', 'commissions:read'],
        groups: [group.body.id],
      },
    ]);
    expect(JSON.stringify(reply)).not.toMatch(/password|argon2/i);
  });

  it('answers for each user what asking for that user alone answers (the list is read set-based, one user by key)', async () => {
    const token = await admin();
    const groups = [];
    for (const name of ['one', 'two'])
      groups.push(
        (await acl('/api/v1/groups', { token, json: { name: `rpc-${name}-${randomUUID()}` } })).body.id,
      );
    const users = [
      await createUser({ roles: ['SALES', 'CORRESPONDENT'], groups: [groups[0]] }),
      await createUser({ roles: ['ADMIN', 'EDITOR', 'CM'], groups }),
      await createUser({}),
      // The same set of roles as the first, named in another order: one union for both.
      await createUser({ roles: ['CORRESPONDENT', 'SALES'] }),
    ];
    const ids = users.map((u) => u.id);
    const together = (await ask('acl.users.get-many', { ids })).response;
    const alone = [];
    for (const id of ids) alone.push(...(await ask('acl.users.get-many', { ids: [id] })).response);
    expect(together).toEqual(alone);
    expect(together.map((u: { roles: string[] }) => u.roles)).toEqual([
      ['CORRESPONDENT', 'SALES'],
      ['ADMIN', 'CM', 'EDITOR'],
      [],
      ['CORRESPONDENT', 'SALES'],
    ]);
    expect(together[1].groups).toEqual([...groups].sort());
    expect(together[1].permissions[0]).toBe('*');
    expect(together[0].permissions.length).toBeGreaterThan(0);
    expect(together[3].permissions).toEqual(together[0].permissions);
    expect(together[2].permissions).toEqual([]);
  });

  it('answers [] for no ids', async () => {
    expect((await ask('acl.users.get-many', { ids: [] })).response).toEqual([]);
  });

  it('answers a malformed request with a 422 error payload at ["data", ...]', async () => {
    const reply = await ask('acl.users.get-many', { ids: 'everyone' });
    expect(reply.response).toBeUndefined();
    expect(reply.err).toEqual({
      status: 422,
      code: 'validation_error',
      detail: [{ loc: ['data', 'ids'], msg: expect.any(String), type: 'list_type' }],
    });
  });
});

describe('acl.users.reports', () => {
  it("answers the manager's direct reports only, by name", async () => {
    const manager = await createUser();
    const zed = await createUser({ first_name: 'Zed', last_name: 'Z', manager_id: manager.id });
    const amy = await createUser({
      first_name: 'Amy',
      last_name: 'A',
      manager_id: manager.id,
      roles: ['BM'],
    });
    await createUser({ first_name: 'Indirect', last_name: 'I', manager_id: amy.id });
    const reply = await ask('acl.users.reports', { manager_id: manager.id });
    expect(reply.response!.map((u: { id: string }) => u.id)).toEqual([amy.id, zed.id]);
    expect(reply.response![0]).toMatchObject({
      roles: ['BM'],
      manager_id: manager.id,
      permissions: ['analytics:sales', 'bookings:read'],
    });
  });

  it('answers [] for an unknown manager', async () => {
    expect((await ask('acl.users.reports', { manager_id: randomUUID() })).response).toEqual([]);
  });
});

describe('acl.users.exists', () => {
  it('answers the existing ids, and only the active ones with active_only', async () => {
    const active = await createUser();
    const disabled = await createUser();
    await acl(`/api/v1/users/${disabled.id}`, {
      method: 'PATCH',
      token: await admin(),
      json: { status: 'DISABLED' },
    });
    const unknown = randomUUID();
    expect((await ask('acl.users.exists', { ids: [active.id, disabled.id, unknown] })).response).toEqual({
      existing: [active.id, disabled.id],
    });
    expect(
      (await ask('acl.users.exists', { ids: [active.id, disabled.id, unknown], active_only: true })).response,
    ).toEqual({ existing: [active.id] });
  });
});

describe('acl.users.permissions', () => {
  it("answers a user's effective permissions, roles and status", async () => {
    const user = await createUser({ roles: ['SALES', 'CORRESPONDENT'] });
    const reply = await ask('acl.users.permissions', { user_id: user.id });
    expect(reply.response).toEqual({
      user_id: user.id,
      status: 'ACTIVE',
      roles: ['CORRESPONDENT', 'SALES'],
      permissions: [
        'analytics:sales',
        'bookings:read',
        'bookings:write',
        'documents:write',
        'lineup:read',
        'story-categories:read',
        'tasks:claim',
        'tasks:read',
      ],
    });
  });

  it("gives each permission of a user's roles once, in code-unit order, the ADMIN wildcard included", async () => {
    const roles = ['SALES', 'CM', 'ADMIN', 'EDITOR'];
    const user = await createUser({ roles });
    const granted = CONTRACT_ROLES.filter((role) => roles.includes(role.code)).flatMap((r) => r.permissions);
    // The roles overlap, so the union is shorter than their sum: each once.
    expect(new Set(granted).size).toBeLessThan(granted.length);
    const reply = await ask('acl.users.permissions', { user_id: user.id });
    expect(reply.response.roles).toEqual(['ADMIN', 'CM', 'EDITOR', 'SALES']);
    expect(reply.response.permissions).toEqual([...new Set(granted)].sort());
    expect(reply.response.permissions[0]).toBe('*');
  });

  it('answers null for an unknown user', async () => {
    expect((await ask('acl.users.permissions', { user_id: randomUUID() })).response).toBeNull();
  });
});

describe('acl.groups.members', () => {
  it("answers a group's member ids, and null for an unknown group", async () => {
    const token = await admin();
    const group = await acl('/api/v1/groups', { token, json: { name: `members-${randomUUID()}` } });
    const empty = await ask('acl.groups.members', { group_id: group.body.id });
    expect(empty.response).toEqual({ group_id: group.body.id, user_ids: [] });
    const a = await createUser({ groups: [group.body.id] });
    const b = await createUser({ groups: [group.body.id] });
    const reply = await ask('acl.groups.members', { group_id: group.body.id });
    expect(reply.response).toEqual({ group_id: group.body.id, user_ids: [a.id, b.id].sort() });
    expect((await ask('acl.groups.members', { group_id: randomUUID() })).response).toBeNull();
  });
});

describe('acl.users.holding', () => {
  it('answers the ACTIVE users holding a permission through a role, the ADMIN wildcard included', async () => {
    const administrator = await createUser({ roles: ['ADMIN'] });
    const sales = await createUser({ roles: ['SALES'] });
    const webhooks = await ask<{ user_ids: string[] }>('acl.users.holding', { permission: 'webhooks:admin' });
    expect(webhooks.response!.user_ids).toContain(administrator.id);
    expect(webhooks.response!.user_ids).not.toContain(sales.id);
    const bookings = await ask<{ user_ids: string[] }>('acl.users.holding', { permission: 'bookings:write' });
    expect(bookings.response!.user_ids).toEqual(expect.arrayContaining([administrator.id, sales.id]));
  });
});
