/** Groups administration (docs/api/contract.md §4a) and their members, through the gateway. */
import { randomUUID } from 'node:crypto';
import { acl, admin, createUser, login, tokenWith } from './support';

describe('groups', () => {
  it('creates a group, 201', async () => {
    const name = `Desk ${randomUUID()}`;
    const res = await acl('/api/v1/groups', { token: await admin(), json: { name } });
    expect(res.status).toBe(201);
    expect(res.body).toEqual({
      id: expect.any(String),
      name,
      member_count: 0,
      created_at: expect.any(String),
      updated_at: expect.any(String),
    });
  });

  it('refuses a name taken in another case with 409 group_name_taken', async () => {
    const name = `Sports ${randomUUID()}`;
    await acl('/api/v1/groups', { token: await admin(), json: { name } });
    const res = await acl('/api/v1/groups', { token: await admin(), json: { name: name.toUpperCase() } });
    expect(res.status).toBe(409);
    expect(res.body.code).toBe('group_name_taken');
  });

  it('refuses a missing or empty name with 422', async () => {
    const res = await acl('/api/v1/groups', { token: await admin(), json: { name: '   ' } });
    expect(res.status).toBe(422);
    expect(res.body.detail).toEqual([
      { loc: ['body', 'name'], msg: expect.any(String), type: 'string_too_short' },
    ]);
  });

  it('adds a member with 201, and answers 200 with the same membership when already a member', async () => {
    const token = await admin();
    const group = await acl('/api/v1/groups', { token, json: { name: `m-${randomUUID()}` } });
    const user = await createUser();
    const first = await acl(`/api/v1/groups/${group.body.id}/members`, { token, json: { user_id: user.id } });
    expect(first.status).toBe(201);
    expect(first.body).toEqual({ group_id: group.body.id, user_id: user.id, created_at: expect.any(String) });
    const second = await acl(`/api/v1/groups/${group.body.id}/members`, {
      token,
      json: { user_id: user.id },
    });
    expect(second.status).toBe(200);
    expect(second.body).toEqual(first.body);
    const read = await acl(`/api/v1/groups/${group.body.id}`, { token });
    expect(read.body.member_count).toBe(1);
    const me = await acl('/api/v1/users/me', {
      token: (await login(user.email, user.password)).body.access_token,
    });
    expect(me.body.groups).toEqual([group.body.id]);
  });

  it('answers 404 for an unknown group and 422 for an unknown user', async () => {
    const token = await admin();
    const user = await createUser();
    const noGroup = await acl(`/api/v1/groups/${randomUUID()}/members`, {
      token,
      json: { user_id: user.id },
    });
    expect(noGroup.status).toBe(404);
    const group = await acl('/api/v1/groups', { token, json: { name: `x-${randomUUID()}` } });
    const noUser = await acl(`/api/v1/groups/${group.body.id}/members`, {
      token,
      json: { user_id: randomUUID() },
    });
    expect(noUser.status).toBe(422);
    expect(noUser.body.detail).toEqual([
      { loc: ['body', 'user_id'], msg: expect.any(String), type: 'value_error' },
    ]);
    const badUser = await acl(`/api/v1/groups/${group.body.id}/members`, { token, json: { user_id: 'me' } });
    expect(badUser.body.detail).toEqual([
      { loc: ['body', 'user_id'], msg: expect.any(String), type: 'uuid_parsing' },
    ]);
    const badGroup = await acl('/api/v1/groups/nope/members', { token, json: { user_id: user.id } });
    expect(badGroup.body.detail).toEqual([
      { loc: ['path', 'id'], msg: expect.any(String), type: 'uuid_parsing' },
    ]);
  });

  it('removes a member with 204, then 404', async () => {
    const token = await admin();
    const group = await acl('/api/v1/groups', { token, json: { name: `r-${randomUUID()}` } });
    const user = await createUser({ groups: [group.body.id] });
    const removed = await acl(`/api/v1/groups/${group.body.id}/members/${user.id}`, {
      method: 'DELETE',
      token,
    });
    expect(removed.status).toBe(204);
    const again = await acl(`/api/v1/groups/${group.body.id}/members/${user.id}`, {
      method: 'DELETE',
      token,
    });
    expect(again.status).toBe(404);
  });

  it('lists groups by name in byte order', async () => {
    const token = await admin();
    const res = await acl('/api/v1/groups?page_size=100', { token });
    expect(res.status).toBe(200);
    const names = res.body.results.map((g: { name: string }) => g.name);
    expect(names).toEqual(
      [...names].sort((a: string, b: string) => Buffer.compare(Buffer.from(a), Buffer.from(b))),
    );
  });

  it('answers 403 without users:admin', async () => {
    expect(
      (await acl('/api/v1/groups', { token: tokenWith(['correspondents:invite']), json: { name: 'x' } }))
        .status,
    ).toBe(403);
  });
});
