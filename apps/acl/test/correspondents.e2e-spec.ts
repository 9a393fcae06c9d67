/**
 * The correspondent list (docs/api/contract.md §4), invitations and their acceptance, through
 * the gateway.
 */
import { randomUUID } from 'node:crypto';
import { eventually } from '@media/testing';
import { acl, admin, aclDb, createUser, follow, login, PASSWORD, tokenWith, uniqueEmail } from './support';

const CORRESPONDENT_FIELDS = [
  'id',
  'name',
  'email',
  'first_name',
  'last_name',
  'phone_number',
  'status',
  'date_joined',
];
const inviter = () => tokenWith(['correspondents:invite', 'correspondents:read']);

function invite(json: Record<string, unknown>, token = inviter()) {
  return acl('/api/v1/auth/correspondents/invite', { token, json });
}

describe('POST /acl/api/v1/auth/correspondents/invite', () => {
  it('creates an INVITED correspondent and answers 201 with the row and a single-use invitation', async () => {
    const email = uniqueEmail('Reporter');
    const before = Date.now();
    const res = await invite({
      email: email.toUpperCase(),
      first_name: 'Lena',
      last_name: 'Park',
      phone_number: '+82 2 123 4567',
    });
    expect(res.status).toBe(201);
    expect(Object.keys(res.body).sort()).toEqual([...CORRESPONDENT_FIELDS, 'invitation'].sort());
    expect(res.body).toEqual({
      id: expect.any(String),
      name: 'Lena Park',
      email: email.toLowerCase(),
      first_name: 'Lena',
      last_name: 'Park',
      phone_number: '+82 2 123 4567',
      status: 'INVITED',
      date_joined: expect.any(String),
      invitation: { token: expect.stringMatching(/^[A-Za-z0-9_-]{43}$/), expires_at: expect.any(String) },
    });
    // date_joined of an invited user is the invitation time.
    expect(Date.parse(res.body.date_joined)).toBeGreaterThanOrEqual(before - 1000);
    expect(Date.parse(res.body.invitation.expires_at)).toBeGreaterThan(Date.now() + 24 * 3600 * 1000);
    const stored = await aclDb<{ token_hash: string }>(
      `SELECT token_hash FROM invitations WHERE user_id = $1`,
      [res.body.id],
    );
    expect(stored[0].token_hash).not.toBe(res.body.invitation.token);
  });

  it('accepts the same fields as multipart/form-data', async () => {
    const form = new FormData();
    const email = uniqueEmail('multipart');
    form.append('email', email);
    form.append('first_name', 'Multi');
    const res = await acl('/api/v1/auth/correspondents/invite', { token: await admin(), multipart: form });
    expect(res.status).toBe(201);
    expect(res.body).toMatchObject({ email, first_name: 'Multi', status: 'INVITED' });
  });

  it('answers null for the names and phone left out, and shows the email as name', async () => {
    const email = uniqueEmail('anon');
    const res = await invite({ email });
    expect(res.status).toBe(201);
    expect(res.body).toMatchObject({ first_name: null, last_name: null, phone_number: null, name: email });
  });

  it('writes acl.correspondent.invited to the outbox in the same transaction, then publishes it', async () => {
    const sub = randomUUID();
    const res = await invite(
      { email: uniqueEmail('evt'), first_name: 'Eve' },
      tokenWith(['correspondents:invite'], { sub }),
    );
    const rows = await aclDb<{ subject: string; payload: Record<string, unknown> }>(
      `SELECT subject, payload FROM outbox WHERE payload->>'user_id' = $1`,
      [res.body.id],
    );
    expect(rows).toEqual([
      {
        subject: 'acl.correspondent.invited',
        payload: {
          user_id: res.body.id,
          email: res.body.email,
          name: 'Eve',
          invited_by: sub,
          expires_at: res.body.invitation.expires_at,
        },
      },
    ]);
    // The relay hands it to JetStream shortly after the commit.
    const published = await eventually(
      () =>
        aclDb(`SELECT published_at FROM outbox WHERE payload->>'user_id' = $1 AND published_at IS NOT NULL`, [
          res.body.id,
        ]),
      (rows) => rows.length > 0,
    );
    expect(published).toHaveLength(1);
  });

  it('refuses an email already used by any user, in any case, with 409 email_taken', async () => {
    const user = await createUser();
    const res = await invite({ email: user.email.toUpperCase() });
    expect(res.status).toBe(409);
    expect(res.body).toEqual({ detail: expect.any(String), code: 'email_taken' });
  });

  it('lets exactly one of two concurrent invitations of the same email succeed', async () => {
    for (let round = 0; round < 3; round++) {
      const email = uniqueEmail('race');
      const answers = await Promise.all([invite({ email }), invite({ email: email.toUpperCase() })]);
      expect(answers.map((a) => a.status).sort()).toEqual([201, 409]);
      const rows = await aclDb(`SELECT id FROM users WHERE email = $1`, [email]);
      expect(rows).toHaveLength(1);
    }
  });

  it('refuses a bad body with 422 at each field', async () => {
    const res = await invite({ email: 'nope', first_name: '', phone_number: 'call me', role: 'ADMIN' });
    expect(res.status).toBe(422);
    expect(res.body.detail).toEqual(
      expect.arrayContaining([
        { loc: ['body', 'email'], msg: expect.any(String), type: 'value_error' },
        { loc: ['body', 'first_name'], msg: expect.any(String), type: 'string_too_short' },
        { loc: ['body', 'phone_number'], msg: expect.any(String), type: 'value_error' },
        { loc: ['body', 'role'], msg: expect.any(String), type: 'extra_forbidden' },
      ]),
    );
    expect(res.body.detail).toHaveLength(4);
    const missing = await invite({});
    expect(missing.body.detail).toEqual([{ loc: ['body', 'email'], msg: 'Field required', type: 'missing' }]);
  });

  it('answers 403 without correspondents:invite and 401 without a token', async () => {
    const forbidden = await invite({ email: uniqueEmail() }, tokenWith(['correspondents:read']));
    expect(forbidden.status).toBe(403);
    expect(forbidden.body.code).toBe('forbidden');
    const anonymous = await acl('/api/v1/auth/correspondents/invite', { json: { email: uniqueEmail() } });
    expect(anonymous.status).toBe(401);
  });
});

describe('POST /acl/api/v1/auth/invitations/{token}/accept', () => {
  it('activates the user with the password (200 with the user); the user can log in; the token is single-use', async () => {
    const email = uniqueEmail('accept');
    const invited = await invite({ email, first_name: 'Ines', last_name: 'Sa' });
    const token = invited.body.invitation.token;

    const accepted = await acl(`/api/v1/auth/invitations/${token}/accept`, { json: { password: PASSWORD } });
    expect(accepted.status).toBe(200);
    expect(accepted.body).toEqual({
      id: invited.body.id,
      email,
      name: 'Ines Sa',
      first_name: 'Ines',
      last_name: 'Sa',
      phone_number: null,
      employee_number: null,
      status: 'ACTIVE',
      roles: ['CORRESPONDENT'],
      groups: [],
      manager_id: null,
      date_joined: invited.body.date_joined,
    });

    const session = await login(email, PASSWORD);
    expect(session.status).toBe(200);

    const reused = await acl(`/api/v1/auth/invitations/${token}/accept`, {
      json: { password: 'another password 1' },
    });
    expect(reused.status).toBe(404);
    expect(reused.body).toEqual({ detail: expect.any(String), code: 'not_found' });
    expect((await login(email, PASSWORD)).status).toBe(200);
  });

  it('answers 404 for an unknown token, without needing an access token', async () => {
    const res = await acl('/api/v1/auth/invitations/not-a-real-token/accept', {
      json: { password: PASSWORD },
    });
    expect(res.status).toBe(404);
    expect(res.body.code).toBe('not_found');
  });

  it('answers 410 for an expired invitation, and the user stays INVITED', async () => {
    const invited = await invite({ email: uniqueEmail('late') });
    await aclDb(`UPDATE invitations SET expires_at = now() - interval '1 second' WHERE user_id = $1`, [
      invited.body.id,
    ]);
    const res = await acl(`/api/v1/auth/invitations/${invited.body.invitation.token}/accept`, {
      json: { password: PASSWORD },
    });
    expect(res.status).toBe(410);
    expect(res.body).toEqual({ detail: expect.any(String), code: 'invitation_expired' });
    const user = await acl(`/api/v1/users/${invited.body.id}`, { token: await admin() });
    expect(user.body.status).toBe('INVITED');
  });

  it('answers 404 once the invited user was disabled (the invitation is withdrawn)', async () => {
    const invited = await invite({ email: uniqueEmail('withdrawn') });
    await acl(`/api/v1/users/${invited.body.id}`, {
      method: 'PATCH',
      token: await admin(),
      json: { status: 'DISABLED' },
    });
    const res = await acl(`/api/v1/auth/invitations/${invited.body.invitation.token}/accept`, {
      json: { password: PASSWORD },
    });
    expect(res.status).toBe(404);
  });

  it('validates the password (12..72 bytes) before looking the token up', async () => {
    const short = await acl('/api/v1/auth/invitations/unknown/accept', { json: { password: 'short' } });
    expect(short.status).toBe(422);
    expect(short.body.detail).toEqual([
      { loc: ['body', 'password'], msg: expect.any(String), type: 'string_too_short' },
    ]);
    const missing = await acl('/api/v1/auth/invitations/unknown/accept', { json: {} });
    expect(missing.body.detail).toEqual([
      { loc: ['body', 'password'], msg: 'Field required', type: 'missing' },
    ]);
  });

  it('lets only one of two concurrent accepts of one token win', async () => {
    const invited = await invite({ email: uniqueEmail('twice') });
    const url = `/api/v1/auth/invitations/${invited.body.invitation.token}/accept`;
    const answers = await Promise.all([
      acl(url, { json: { password: PASSWORD } }),
      acl(url, { json: { password: 'other password 12' } }),
    ]);
    expect(answers.map((a) => a.status).sort()).toEqual([200, 404]);
  });
});

describe('GET /acl/api/v1/auth/correspondents/invite', () => {
  it('lists only correspondents, date_joined desc then id desc, walked both ways with ties', async () => {
    const token = await admin();
    // Correspondents created by the admin API share one date_joined; invited ones get "now".
    const tie = '1991-01-01T00:00:00.000Z';
    for (let i = 0; i < 5; i++) await createUser({ roles: ['CORRESPONDENT'], date_joined: tie });
    await createUser({ roles: ['EDITOR'], date_joined: tie });
    await invite({ email: uniqueEmail('listed') });

    const expected = (
      await aclDb<{ id: string }>(
        `SELECT u.id FROM users u WHERE EXISTS (SELECT 1 FROM user_roles r WHERE r.user_id = u.id AND r.role_code = 'CORRESPONDENT')
          ORDER BY u.date_joined DESC, u.id DESC`,
      )
    ).map((r) => r.id);

    const seen: string[] = [];
    let res = await acl('/api/v1/auth/correspondents/invite?page_size=2', {
      token: tokenWith(['correspondents:read']),
    });
    expect(res.status).toBe(200);
    expect(Object.keys(res.body.results[0]).sort()).toEqual([...CORRESPONDENT_FIELDS].sort());
    for (;;) {
      seen.push(...res.body.results.map((c: { id: string }) => c.id));
      if (!res.body.next) break;
      res = await follow(res.body.next, token);
    }
    expect(seen).toEqual(expected);
    const backwards: string[] = [];
    for (;;) {
      backwards.unshift(...res.body.results.map((c: { id: string }) => c.id));
      if (!res.body.previous) break;
      res = await follow(res.body.previous, token);
    }
    expect(backwards).toEqual(expected);
  });

  it('filters by status', async () => {
    await invite({ email: uniqueEmail('status') });
    const res = await acl('/api/v1/auth/correspondents/invite?status=INVITED&page_size=100', {
      token: tokenWith(['correspondents:read']),
    });
    expect(res.status).toBe(200);
    expect(res.body.results.length).toBeGreaterThan(0);
    for (const c of res.body.results) expect(c.status).toBe('INVITED');
  });

  it('answers 403 without correspondents:read and 401 without a token', async () => {
    expect(
      (await acl('/api/v1/auth/correspondents/invite', { token: tokenWith(['correspondents:invite']) }))
        .status,
    ).toBe(403);
    expect((await acl('/api/v1/auth/correspondents/invite')).status).toBe(401);
  });

  it('refuses page_size 0 / 101 / abc and a tampered cursor with 422 at their query loc', async () => {
    const token = tokenWith(['correspondents:read']);
    for (const size of ['0', '101', 'abc']) {
      const res = await acl(`/api/v1/auth/correspondents/invite?page_size=${size}`, { token });
      expect(res.status).toBe(422);
      expect(res.body.detail[0].loc).toEqual(['query', 'page_size']);
    }
    const res = await acl('/api/v1/auth/correspondents/invite?cursor=eyJkIjoibiJ9.bad', { token });
    expect(res.status).toBe(422);
    expect(res.body.detail).toEqual([
      { loc: ['query', 'cursor'], msg: expect.any(String), type: 'value_error' },
    ]);
  });
});
