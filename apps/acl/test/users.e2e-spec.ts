/**
 * Users administration (docs/api/contract.md §4a), pagination (§3) and the order of checks (§1),
 * through the gateway. Roles and groups: roles.e2e-spec.ts, groups.e2e-spec.ts.
 */
import { randomUUID } from 'node:crypto';
import {
  acl,
  admin,
  aclDb,
  createUser,
  follow,
  gateway,
  login,
  PASSWORD,
  system,
  tokenWith,
  uniqueEmail,
} from './support';

const USER_FIELDS = [
  'id',
  'email',
  'name',
  'first_name',
  'last_name',
  'phone_number',
  'employee_number',
  'status',
  'roles',
  'groups',
  'manager_id',
  'date_joined',
];

describe('POST /acl/api/v1/users', () => {
  it('creates an active user with roles, groups and a manager, 201 with every field', async () => {
    const group = await acl('/api/v1/groups', {
      token: await admin(),
      json: { name: `news-${randomUUID()}` },
    });
    const manager = await createUser();
    const employee = `E-${randomUUID().slice(0, 8)}`;
    const email = uniqueEmail('Mixed.Case');
    const res = await acl('/api/v1/users', {
      token: await admin(),
      json: {
        email: email.toUpperCase(),
        password: PASSWORD,
        first_name: ' Maria ',
        last_name: 'Silva',
        phone_number: '+44 20 7946 0000',
        employee_number: employee,
        roles: ['FINANCE', 'CM', 'FINANCE'],
        groups: [group.body.id],
        manager_id: manager.id,
        date_joined: '2021-06-01T09:30:00+02:00',
      },
    });
    expect(res.status).toBe(201);
    expect(Object.keys(res.body).sort()).toEqual([...USER_FIELDS].sort());
    expect(res.body).toEqual({
      id: expect.any(String),
      email: email.toLowerCase(),
      name: 'Maria Silva',
      first_name: 'Maria',
      last_name: 'Silva',
      phone_number: '+44 20 7946 0000',
      employee_number: employee,
      status: 'ACTIVE',
      roles: ['CM', 'FINANCE'],
      groups: [group.body.id],
      manager_id: manager.id,
      date_joined: '2021-06-01T07:30:00.000Z',
    });
    const stored = await aclDb<{ password_hash: string }>(`SELECT password_hash FROM users WHERE id = $1`, [
      res.body.id,
    ]);
    expect(stored[0].password_hash).toMatch(/^\$argon2id\$/);
    expect(JSON.stringify(res.body)).not.toContain('argon2');
  });

  it('answers null for the optional fields left out', async () => {
    const { body } = await createUser({ first_name: 'Only', last_name: 'Names' });
    expect(body).toMatchObject({
      phone_number: null,
      employee_number: null,
      manager_id: null,
      roles: [],
      groups: [],
    });
  });

  it('refuses an email that differs only in case with 409 email_taken', async () => {
    const user = await createUser();
    const res = await acl('/api/v1/users', {
      token: await admin(),
      json: { email: user.email.toUpperCase(), password: PASSWORD, first_name: 'A', last_name: 'B' },
    });
    expect(res.status).toBe(409);
    expect(res.body).toEqual({ detail: expect.any(String), code: 'email_taken' });
  });

  it('refuses a duplicate employee number with 409 employee_number_taken', async () => {
    const employee = `E-${randomUUID().slice(0, 8)}`;
    await createUser({ employee_number: employee });
    const res = await acl('/api/v1/users', {
      token: await admin(),
      json: {
        email: uniqueEmail(),
        password: PASSWORD,
        first_name: 'A',
        last_name: 'B',
        employee_number: employee,
      },
    });
    expect(res.status).toBe(409);
    expect(res.body.code).toBe('employee_number_taken');
  });

  it('reports every failing field at once with its loc', async () => {
    const res = await acl('/api/v1/users', {
      token: await admin(),
      json: {
        email: 'not-an-email',
        password: 'short',
        last_name: '',
        roles: 'ADMIN',
        groups: ['nope'],
        manager_id: 42,
        date_joined: 'yesterday',
        nickname: 'x',
      },
    });
    expect(res.status).toBe(422);
    const byField = Object.fromEntries(
      res.body.detail.map((d: { loc: string[]; type: string }) => [d.loc.join('.'), d.type]),
    );
    expect(byField).toEqual({
      'body.email': 'value_error',
      'body.password': 'string_too_short',
      'body.first_name': 'missing',
      'body.last_name': 'string_too_short',
      'body.roles': 'list_type',
      'body.groups.0': 'uuid_parsing',
      'body.manager_id': 'uuid_parsing',
      'body.date_joined': 'datetime_parsing',
      'body.nickname': 'extra_forbidden',
    });
  });

  it('counts the password in bytes: 12..72', async () => {
    const token = await admin();
    const base = { first_name: 'A', last_name: 'B' };
    const tooLong = await acl('/api/v1/users', {
      token,
      json: { ...base, email: uniqueEmail(), password: 'é'.repeat(37) },
    }); // 74 bytes
    expect(tooLong.status).toBe(422);
    expect(tooLong.body.detail).toEqual([
      { loc: ['body', 'password'], msg: expect.any(String), type: 'string_too_long' },
    ]);
    const multiByteOk = await acl('/api/v1/users', {
      token,
      json: { ...base, email: uniqueEmail(), password: 'é'.repeat(6) },
    }); // 12 bytes
    expect(multiByteOk.status).toBe(201);
    const max = await acl('/api/v1/users', {
      token,
      json: { ...base, email: uniqueEmail(), password: 'x'.repeat(72) },
    });
    expect(max.status).toBe(201);
  });

  it('refuses unknown role codes and group ids at their array index, and an unknown manager', async () => {
    const group = await acl('/api/v1/groups', { token: await admin(), json: { name: `g-${randomUUID()}` } });
    const res = await acl('/api/v1/users', {
      token: await admin(),
      json: {
        email: uniqueEmail(),
        password: PASSWORD,
        first_name: 'A',
        last_name: 'B',
        roles: ['EDITOR', 'WIZARD'],
        groups: [group.body.id, randomUUID()],
        manager_id: randomUUID(),
      },
    });
    expect(res.status).toBe(422);
    expect(res.body.detail).toEqual([
      { loc: ['body', 'roles', '1'], msg: expect.any(String), type: 'enum' },
      { loc: ['body', 'groups', '1'], msg: expect.any(String), type: 'value_error' },
      { loc: ['body', 'manager_id'], msg: expect.any(String), type: 'value_error' },
    ]);
  });

  it('answers 403 forbidden without users:admin, before validating the body', async () => {
    const res = await acl('/api/v1/users', { token: tokenWith(['lineup:read']), json: {} });
    expect(res.status).toBe(403);
    expect(res.body).toEqual({ detail: expect.any(String), code: 'forbidden' });
  });

  it('answers 401 without a token, before anything else', async () => {
    const res = await acl('/api/v1/users', { json: {} });
    expect(res.status).toBe(401);
    expect(res.body.code).toBe('not_authenticated');
  });
});

describe('GET /acl/api/v1/users (cursor list)', () => {
  const tie = '1990-03-04T05:06:07.089Z';
  let tied: string[];

  beforeAll(async () => {
    // Seven users share one date_joined: the order must still be total (id desc breaks ties).
    const created = [];
    for (let i = 0; i < 7; i++) created.push(await createUser({ date_joined: tie }));
    created.push(await createUser({ date_joined: '1990-03-04T05:06:07.090Z' }));
    created.push(await createUser({ date_joined: '1990-03-04T05:06:07.088Z' }));
    tied = created.map((u) => u.id);
  });

  async function expectedOrder(): Promise<string[]> {
    const rows = await aclDb<{ id: string }>(`SELECT id FROM users ORDER BY date_joined DESC, id DESC`);
    return rows.map((r) => r.id);
  }

  it('walks every user forward and back with ties in date_joined, no row lost or repeated', async () => {
    const token = await admin();
    const expected = await expectedOrder();
    const pages: string[][] = [];
    let res = await acl('/api/v1/users?page_size=3', { token });
    expect(res.body.previous).toBeNull();
    for (;;) {
      expect(res.status).toBe(200);
      pages.push(res.body.results.map((u: { id: string }) => u.id));
      if (!res.body.next) break;
      res = await follow(res.body.next, token);
    }
    expect(pages.flat()).toEqual(expected);
    expect(pages.flat()).toEqual(expect.arrayContaining(tied));

    const back: string[][] = [pages[pages.length - 1]];
    while (res.body.previous) {
      res = await follow(res.body.previous, token);
      expect(res.status).toBe(200);
      back.unshift(res.body.results.map((u: { id: string }) => u.id));
    }
    expect(back.flat()).toEqual(expected);
    expect(back).toEqual(pages);
  });

  it('keeps the other query parameters in next and builds absolute URLs from the public origin', async () => {
    const res = await acl('/api/v1/users?page_size=1&status=ACTIVE', { token: await admin() });
    const next = new URL(res.body.next);
    expect(next.origin).toBe(new URL(gateway()).origin);
    expect(next.pathname).toBe('/acl/api/v1/users');
    expect(next.searchParams.get('status')).toBe('ACTIVE');
    expect(next.searchParams.get('page_size')).toBe('1');
  });

  it('filters by status and role', async () => {
    const disabled = await createUser({ roles: ['BM'] });
    await acl(`/api/v1/users/${disabled.id}`, {
      method: 'PATCH',
      token: await admin(),
      json: { status: 'DISABLED' },
    });
    const res = await acl('/api/v1/users?status=DISABLED&role=BM&page_size=100', { token: await admin() });
    expect(res.status).toBe(200);
    expect(res.body.results.map((u: { id: string }) => u.id)).toContain(disabled.id);
    for (const u of res.body.results) {
      expect(u.status).toBe('DISABLED');
      expect(u.roles).toContain('BM');
    }
  });

  it.each([
    ['0', 'greater_than_equal'],
    ['101', 'less_than_equal'],
    ['abc', 'int_parsing'],
    ['1.5', 'int_parsing'],
  ])('refuses page_size=%s with 422 at ["query","page_size"]', async (value, type) => {
    const res = await acl(`/api/v1/users?page_size=${value}`, { token: await admin() });
    expect(res.status).toBe(422);
    expect(res.body.detail).toEqual([{ loc: ['query', 'page_size'], msg: expect.any(String), type }]);
  });

  it('refuses a tampered cursor with 422 at ["query","cursor"]', async () => {
    const token = await admin();
    const first = await acl('/api/v1/users?page_size=1', { token });
    const cursor = new URL(first.body.next).searchParams.get('cursor')!;
    const [body, signature] = cursor.split('.');
    const payload = JSON.parse(Buffer.from(body, 'base64url').toString());
    payload.k[1] = randomUUID();
    const forged = `${Buffer.from(JSON.stringify(payload)).toString('base64url')}.${signature}`;
    for (const bad of [forged, 'garbage', `${body}.AAAA`]) {
      const res = await acl(`/api/v1/users?cursor=${encodeURIComponent(bad)}`, { token });
      expect(res.status).toBe(422);
      expect(res.body.detail).toEqual([
        { loc: ['query', 'cursor'], msg: expect.any(String), type: 'value_error' },
      ]);
    }
  });

  it('refuses a cursor of another list', async () => {
    const token = await admin();
    const correspondents = await acl('/api/v1/auth/correspondents/invite?page_size=1', { token });
    const users = await acl('/api/v1/users?page_size=1', { token });
    const cursor = new URL(users.body.next).searchParams.get('cursor')!;
    expect(correspondents.status).toBe(200);
    const res = await acl(`/api/v1/auth/correspondents/invite?cursor=${encodeURIComponent(cursor)}`, {
      token,
    });
    expect(res.status).toBe(422);
    expect(res.body.detail[0].loc).toEqual(['query', 'cursor']);
  });

  it('refuses an unknown query parameter and a bad status', async () => {
    const res = await acl('/api/v1/users?status=SLEEPING&sort=name', { token: await admin() });
    expect(res.status).toBe(422);
    expect(res.body.detail).toHaveLength(2);
    expect(res.body.detail).toEqual(
      expect.arrayContaining([
        { loc: ['query', 'status'], msg: expect.any(String), type: 'enum' },
        { loc: ['query', 'sort'], msg: expect.any(String), type: 'extra_forbidden' },
      ]),
    );
  });

  it('answers 403 without users:admin', async () => {
    const res = await acl('/api/v1/users', { token: tokenWith(['correspondents:read']) });
    expect(res.status).toBe(403);
  });
});

describe('GET and PATCH /acl/api/v1/users/{id}', () => {
  it('reads one user', async () => {
    const user = await createUser();
    const res = await acl(`/api/v1/users/${user.id}`, { token: await admin() });
    expect(res.status).toBe(200);
    expect(res.body).toEqual(user.body);
  });

  it('answers 404 for an unknown id and 422 at ["path","id"] for a malformed one', async () => {
    const missing = await acl(`/api/v1/users/${randomUUID()}`, { token: await admin() });
    expect(missing.status).toBe(404);
    expect(missing.body.code).toBe('not_found');
    const malformed = await acl('/api/v1/users/not-a-uuid', { token: await admin() });
    expect(malformed.status).toBe(422);
    expect(malformed.body.detail).toEqual([
      { loc: ['path', 'id'], msg: expect.any(String), type: 'uuid_parsing' },
    ]);
  });

  it('changes only the fields sent; roles and groups replace the whole set; null clears', async () => {
    const token = await admin();
    const g1 = await acl('/api/v1/groups', { token, json: { name: `a-${randomUUID()}` } });
    const g2 = await acl('/api/v1/groups', { token, json: { name: `b-${randomUUID()}` } });
    const manager = await createUser();
    const user = await createUser({
      roles: ['EDITOR', 'SALES'],
      groups: [g1.body.id],
      phone_number: '+1 555 0100',
      manager_id: manager.id,
    });
    const res = await acl(`/api/v1/users/${user.id}`, {
      method: 'PATCH',
      token,
      json: {
        last_name: 'Changed',
        roles: ['FINANCE'],
        groups: [g2.body.id],
        phone_number: null,
        manager_id: null,
        employee_number: 'EMP-9' + randomUUID().slice(0, 4),
      },
    });
    expect(res.status).toBe(200);
    expect(res.body).toMatchObject({
      first_name: 'Test',
      last_name: 'Changed',
      name: 'Test Changed',
      roles: ['FINANCE'],
      groups: [g2.body.id],
      phone_number: null,
      manager_id: null,
    });
    const token2 = (await login(user.email, user.password)).body.access_token;
    const me = await acl('/api/v1/users/me', { token: token2 });
    expect(me.body.roles).toEqual(['FINANCE']);
  });

  it('treats an empty PATCH as a no-op 200, as DRF does', async () => {
    const user = await createUser();
    const res = await acl(`/api/v1/users/${user.id}`, { method: 'PATCH', token: await admin(), json: {} });
    expect(res.status).toBe(200);
    expect(res.body).toEqual(user.body);
  });

  it('refuses fields that cannot be patched, null names and an INVITED status with 422', async () => {
    const user = await createUser();
    const res = await acl(`/api/v1/users/${user.id}`, {
      method: 'PATCH',
      token: await admin(),
      json: { email: 'x@example.com', first_name: null, status: 'INVITED', password: 'new password 123' },
    });
    expect(res.status).toBe(422);
    const locs = res.body.detail.map((d: { loc: string[]; type: string }) => [d.loc.join('.'), d.type]);
    expect(locs).toEqual(
      expect.arrayContaining([
        ['body.first_name', 'string_type'],
        ['body.status', 'enum'],
        ['body.email', 'extra_forbidden'],
        ['body.password', 'extra_forbidden'],
      ]),
    );
    expect(locs).toHaveLength(4);
  });

  it('refuses a manager loop with 422 at ["body","manager_id"]', async () => {
    const a = await createUser();
    const b = await createUser({ manager_id: a.id });
    const c = await createUser({ manager_id: b.id });
    const token = await admin();
    const loop = await acl(`/api/v1/users/${a.id}`, { method: 'PATCH', token, json: { manager_id: c.id } });
    expect(loop.status).toBe(422);
    expect(loop.body.detail).toEqual([
      { loc: ['body', 'manager_id'], msg: expect.any(String), type: 'value_error' },
    ]);
    const self = await acl(`/api/v1/users/${a.id}`, { method: 'PATCH', token, json: { manager_id: a.id } });
    expect(self.status).toBe(422);
  });

  it('validates the body before looking the user up (422 before 404)', async () => {
    const res = await acl(`/api/v1/users/${randomUUID()}`, {
      method: 'PATCH',
      token: await admin(),
      json: { status: 'GONE' },
    });
    expect(res.status).toBe(422);
    const missing = await acl(`/api/v1/users/${randomUUID()}`, {
      method: 'PATCH',
      token: await admin(),
      json: { status: 'ACTIVE' },
    });
    expect(missing.status).toBe(404);
  });

  it('refuses to activate an invited user who has not accepted yet with 409 invitation_pending', async () => {
    const invited = await acl('/api/v1/auth/correspondents/invite', {
      token: tokenWith(['correspondents:invite']),
      json: { email: uniqueEmail('pending') },
    });
    const res = await acl(`/api/v1/users/${invited.body.id}`, {
      method: 'PATCH',
      token: await admin(),
      json: { status: 'ACTIVE' },
    });
    expect(res.status).toBe(409);
    expect(res.body.code).toBe('invitation_pending');
  });

  it('answers 409 when the new employee number is taken', async () => {
    const employee = `E-${randomUUID().slice(0, 8)}`;
    await createUser({ employee_number: employee });
    const other = await createUser();
    const res = await acl(`/api/v1/users/${other.id}`, {
      method: 'PATCH',
      token: await admin(),
      json: { employee_number: employee },
    });
    expect(res.status).toBe(409);
    expect(res.body.code).toBe('employee_number_taken');
  });

  it('refuses a manager loop made by two racing updates: exactly one of them wins', async () => {
    const token = await admin();
    for (let round = 0; round < 5; round++) {
      const a = await createUser();
      const b = await createUser();
      const [ab, ba] = await Promise.all([
        acl(`/api/v1/users/${a.id}`, { method: 'PATCH', token, json: { manager_id: b.id } }),
        acl(`/api/v1/users/${b.id}`, { method: 'PATCH', token, json: { manager_id: a.id } }),
      ]);
      expect([ab.status, ba.status].sort()).toEqual([200, 422]);
    }
  });

  describe('the last active administrator (409 last_admin)', () => {
    const adminId = async () =>
      (await aclDb<{ id: string }>(`SELECT id FROM users WHERE email = $1`, [system().admin.email]))[0].id;

    it('cannot be disabled, nor lose the ADMIN role', async () => {
      const id = await adminId();
      const token = await admin();
      const disable = await acl(`/api/v1/users/${id}`, {
        method: 'PATCH',
        token,
        json: { status: 'DISABLED' },
      });
      expect(disable.status).toBe(409);
      expect(disable.body).toEqual({ detail: expect.any(String), code: 'last_admin' });
      const demote = await acl(`/api/v1/users/${id}`, {
        method: 'PATCH',
        token,
        json: { roles: ['EDITOR'] },
      });
      expect(demote.status).toBe(409);
      expect(demote.body.code).toBe('last_admin');
      // Nothing of the refused change was written.
      const me = await acl(`/api/v1/users/${id}`, { token });
      expect(me.body).toMatchObject({ status: 'ACTIVE', roles: ['ADMIN'] });
      // Keeping the role while changing others is fine.
      const keep = await acl(`/api/v1/users/${id}`, {
        method: 'PATCH',
        token,
        json: { roles: ['ADMIN', 'EDITOR'] },
      });
      expect(keep.status).toBe(200);
      // Put back as it was without taking a role away through the API: that would revoke the
      // administrator's token the other tests share.
      await aclDb(`DELETE FROM user_roles WHERE user_id = $1 AND role_code = 'EDITOR'`, [id]);
    });

    it('lets an administrator go while another active one remains', async () => {
      const token = await admin();
      const second = await createUser({ roles: ['ADMIN'] });
      const demote = await acl(`/api/v1/users/${second.id}`, { method: 'PATCH', token, json: { roles: [] } });
      expect(demote.status).toBe(200);
      const again = await createUser({ roles: ['ADMIN'] });
      const disable = await acl(`/api/v1/users/${again.id}`, {
        method: 'PATCH',
        token,
        json: { status: 'DISABLED' },
      });
      expect(disable.status).toBe(200);
    });

    it('keeps one of two administrators demoted at the same moment', async () => {
      const token = await admin();
      const bootstrap = await adminId();
      // Leave exactly two active administrators for the race (the bootstrap one steps aside; its
      // token still carries its permissions).
      await aclDb(`DELETE FROM user_roles WHERE user_id = $1 AND role_code = 'ADMIN'`, [bootstrap]);
      try {
        for (let round = 0; round < 3; round++) {
          const x = await createUser({ roles: ['ADMIN'] });
          const y = await createUser({ roles: ['ADMIN'] });
          const others = await aclDb(
            `SELECT u.id FROM users u JOIN user_roles ur ON ur.user_id = u.id
              WHERE ur.role_code = 'ADMIN' AND u.status = 'ACTIVE' AND u.id <> ALL($1::uuid[])`,
            [[x.id, y.id]],
          );
          // Earlier rounds' survivors are demoted first (never the last one).
          for (const row of others)
            await aclDb(`DELETE FROM user_roles WHERE user_id = $1 AND role_code = 'ADMIN'`, [row.id]);
          const results = await Promise.all([
            acl(`/api/v1/users/${x.id}`, { method: 'PATCH', token, json: { roles: [] } }),
            acl(`/api/v1/users/${y.id}`, { method: 'PATCH', token, json: { status: 'DISABLED' } }),
          ]);
          expect(results.map((r) => r.status).sort()).toEqual([200, 409]);
          const left = await aclDb(
            `SELECT count(*)::int AS n FROM users u JOIN user_roles ur ON ur.user_id = u.id
              WHERE ur.role_code = 'ADMIN' AND u.status = 'ACTIVE'`,
          );
          expect(left).toEqual([{ n: 1 }]);
        }
      } finally {
        await aclDb(
          `INSERT INTO user_roles (user_id, role_code) VALUES ($1, 'ADMIN') ON CONFLICT DO NOTHING`,
          [bootstrap],
        );
      }
    });
  });

  it('answers 403 without users:admin', async () => {
    const user = await createUser();
    expect((await acl(`/api/v1/users/${user.id}`, { token: tokenWith([]) })).status).toBe(403);
    expect(
      (
        await acl(`/api/v1/users/${user.id}`, {
          method: 'PATCH',
          token: tokenWith(['correspondents:invite']),
          json: {},
        })
      ).status,
    ).toBe(403);
  });
});
