/**
 * Tokens, refresh rotation, JWKS and the caller's profile (docs/api/contract.md §1, §4a), through the gateway
 * against the real stack.
 */
import { createPublicKey, randomUUID } from 'node:crypto';
import { eventually, mintToken, rsaThumbprint } from '@media/testing';
import jwt from 'jsonwebtoken';
import {
  acl,
  admin,
  aclDb,
  createUser,
  login,
  PASSWORD,
  system,
  timed,
  tokenWith,
  uniqueEmail,
} from './support';

function decode(token: string): { header: Record<string, unknown>; payload: Record<string, any> } {
  const decoded = jwt.decode(token, { complete: true });
  if (!decoded || typeof decoded.payload === 'string') throw new Error('not a JWT');
  return {
    header: decoded.header as unknown as Record<string, unknown>,
    payload: decoded.payload as Record<string, any>,
  };
}

describe('POST /acl/api/v1/auth/token (docs/api/contract.md §1)', () => {
  it('issues an RS256 access token and a refresh token for the right password', async () => {
    const user = await createUser({
      first_name: 'Ana',
      last_name: 'Lima',
      employee_number: `E-${randomUUID().slice(0, 6)}`,
      roles: ['EDITOR'],
    });
    const res = await login(user.email, user.password);
    expect(res.status).toBe(200);
    expect(res.body).toEqual({
      access_token: expect.any(String),
      token_type: 'Bearer',
      expires_in: 900,
      refresh_token: expect.any(String),
    });
    const { header, payload } = decode(res.body.access_token);
    // Signed with a key acl publishes: the seeded one, or its successor when another test file
    // (the fuzz suite visits POST keys/rotate as an admin) rotated the shared stack's key before.
    const published = await aclDb<{ kid: string }>(
      `SELECT kid FROM signing_keys WHERE retired_at IS NULL OR retired_at > now()`,
    );
    expect(header).toMatchObject({ alg: 'RS256' });
    expect(published.map((row) => row.kid)).toContain(header.kid);
    expect(payload).toEqual({
      sub: user.id,
      email: user.email,
      name: 'Ana Lima',
      employee_number: user.body.employee_number,
      groups: [],
      roles: ['EDITOR'],
      permissions: [
        'correspondents:invite',
        'correspondents:read',
        'documents:write',
        'lineup:read',
        'lineup:write',
        'story-categories:read',
        'story-categories:write',
        'tasks:claim',
        'tasks:read',
      ],
      iss: 'media-backoffice-acl',
      aud: 'media-backoffice',
      iat: expect.any(Number),
      exp: payload.iat + 900,
      jti: expect.any(String),
      ver: 0,
    });
  });

  it('verifies the issued token against the published JWKS', async () => {
    const user = await createUser();
    const res = await login(user.email, user.password);
    const jwks = await acl('/.well-known/jwks.json');
    const { header } = decode(res.body.access_token);
    const jwk = jwks.body.keys.find((k: { kid: string }) => k.kid === header.kid);
    const key = createPublicKey({ key: jwk, format: 'jwk' });
    expect(() =>
      jwt.verify(res.body.access_token, key, {
        algorithms: ['RS256'],
        audience: 'media-backoffice',
        issuer: 'media-backoffice-acl',
      }),
    ).not.toThrow();
  });

  it('carries the groups of the user in the token', async () => {
    const group = await acl('/api/v1/groups', {
      token: await admin(),
      json: { name: `desk-${randomUUID()}` },
    });
    const user = await createUser({ groups: [group.body.id] });
    const res = await login(user.email, user.password);
    expect(decode(res.body.access_token).payload.groups).toEqual([group.body.id]);
  });

  it('compares the email case-insensitively', async () => {
    const user = await createUser();
    const res = await login(`  ${user.email.toUpperCase()} `, user.password);
    expect(res.status).toBe(200);
  });

  it('answers the same 401 invalid_credentials for an unknown email, a wrong password, a disabled and an invited account', async () => {
    const wrong = await createUser();
    const disabled = await createUser();
    await acl(`/api/v1/users/${disabled.id}`, {
      method: 'PATCH',
      token: await admin(),
      json: { status: 'DISABLED' },
    });
    const invited = uniqueEmail('invited');
    await acl('/api/v1/auth/correspondents/invite', {
      token: tokenWith(['correspondents:invite']),
      json: { email: invited },
    });

    const answers = await Promise.all([
      login(uniqueEmail('nobody'), PASSWORD),
      login(wrong.email, 'not the password at all'),
      login(disabled.email, disabled.password),
      login(invited, PASSWORD),
    ]);
    for (const res of answers) {
      expect(res.status).toBe(401);
      expect(res.body).toEqual({ detail: answers[0].body.detail, code: 'invalid_credentials' });
      expect(res.headers.get('www-authenticate')).toBe('Bearer');
    }
  });

  it('takes about as long for an unknown email as for a wrong password (a real hash is verified either way)', async () => {
    const users = await Promise.all(Array.from({ length: 5 }, () => createUser()));
    const unknown: number[] = [];
    const wrong: number[] = [];
    // The floor: the same route refused before any lookup or hash (no password: 422).
    const floor: number[] = [];
    for (const user of users) {
      const [refused, took] = await timed(() => acl('/api/v1/auth/token', { json: { email: user.email } }));
      expect(refused.status).toBe(422);
      floor.push(took);
      unknown.push((await timed(() => login(uniqueEmail('ghost'), PASSWORD)))[1]);
      wrong.push((await timed(() => login(user.email, 'wrong password here')))[1]);
    }
    const median = (xs: number[]) => [...xs].sort((a, b) => a - b)[2];
    // argon2 dominates both; without the dummy hash an unknown email would answer a few ms above
    // the floor. Measured above the floor, so that a loaded machine, which slows every request
    // (and the wrong password's writes most), does not decide it.
    const hashed = median(wrong) - median(floor);
    expect(median(unknown) - median(floor)).toBeGreaterThan(hashed * 0.3);
    expect(Math.abs(median(unknown) - median(wrong))).toBeLessThan(Math.max(150, median(wrong) * 0.5));
  });

  it('adds a growing delay to repeated failures of one account, at most 1 s, reset by a success, never a lockout', async () => {
    const user = await createUser();
    const durations: number[] = [];
    for (let i = 0; i < 6; i++)
      durations.push((await timed(() => login(user.email, 'wrong password here')))[1]);
    // 0, 50, 100, 200, 400, 800 ms of delay before each verification: each attempt takes at
    // least its delay, whatever the load (a difference to the first attempt was 563 ms at load 23,
    // the first one's hash being the slower).
    expect(durations[3]).toBeGreaterThanOrEqual(200);
    expect(durations[4]).toBeGreaterThanOrEqual(400);
    expect(durations[5]).toBeGreaterThanOrEqual(800);
    expect(durations[5]).toBeGreaterThan(durations[0]);
    const [seventh, capped] = await timed(() => login(user.email, 'wrong password here'));
    expect(seventh.status).toBe(401);
    expect(capped).toBeGreaterThanOrEqual(1000);
    expect(capped).toBeLessThan(1000 + durations[0] + 700);

    const [ok, waited] = await timed(() => login(user.email, user.password));
    expect(ok.status).toBe(200); // no lockout: the right password still works
    expect(waited).toBeGreaterThanOrEqual(1000);

    const [afterReset, fresh] = await timed(() => login(user.email, 'wrong password here'));
    expect(afterReset.status).toBe(401);
    expect(fresh).toBeLessThan(Math.max(900, durations[0] + 700));
  });

  it('answers 429 rate_limited with Retry-After: 1, unchecked, while an attempt for the account is in flight (on any replica)', async () => {
    const user = await createUser();
    // An attempt in flight, as another replica records it.
    await aclDb(
      `INSERT INTO login_failures (email, failures, last_failed_at, in_flight_until)
       VALUES ($1, 3, now(), now() + interval '1 minute')`,
      [user.email],
    );
    // The right password among them: refused too, unchecked, so a guess gains nothing by racing.
    const racing = await Promise.all([
      login(user.email, user.password),
      ...Array.from({ length: 19 }, () => login(user.email, 'wrong password here')),
    ]);
    expect(racing.map((r) => r.status)).toEqual(Array(20).fill(429));
    for (const res of racing) {
      expect(res.body).toEqual({ detail: expect.any(String), code: 'rate_limited' });
      expect(res.headers.get('retry-after')).toBe('1');
    }
    // None of them was counted as a failure.
    expect(await aclDb(`SELECT failures FROM login_failures WHERE email = $1`, [user.email])).toEqual([
      { failures: 3 },
    ]);
    await aclDb(`UPDATE login_failures SET in_flight_until = NULL WHERE email = $1`, [user.email]);
    expect((await login(user.email, user.password)).status).toBe(200);
  });

  it('refuses attempts racing one that waits its delay, and lets the owner in right after', async () => {
    const user = await createUser();
    // Ten recent failures: the next attempt waits the full second before its check.
    await aclDb(`INSERT INTO login_failures (email, failures, last_failed_at) VALUES ($1, 10, now())`, [
      user.email,
    ]);
    const first = login(user.email, 'wrong password here');
    // The first attempt holds the account's row while it waits its delay.
    await eventually(
      () => aclDb(`SELECT 1 FROM login_failures WHERE email = $1 AND in_flight_until > now()`, [user.email]),
      (rows) => rows.length === 1,
    );
    const racing = await Promise.all(
      Array.from({ length: 19 }, () => login(user.email, 'wrong password here')),
    );
    expect((await first).status).toBe(401);
    const statuses = racing.map((r) => r.status);
    // Those that reached acl while the first waited are 429; on a loaded machine a straggler may
    // arrive after it ended and be checked in turn, but checks never overlap: the failure count
    // grows by exactly the number of checked attempts.
    expect(statuses.filter((s) => s === 429).length).toBeGreaterThanOrEqual(15);
    expect(statuses.every((s) => s === 429 || s === 401)).toBe(true);
    const checked = 1 + statuses.filter((s) => s === 401).length;
    const [row] = await aclDb<{ failures: number; in_flight_until: Date | null }>(
      `SELECT failures, in_flight_until FROM login_failures WHERE email = $1`,
      [user.email],
    );
    expect(row).toEqual({ failures: 10 + checked, in_flight_until: null });
    // Not locked out: the next attempt, alone, gets in after at most about a second.
    const [ok, waited] = await timed(() => login(user.email, user.password));
    expect(ok.status).toBe(200);
    expect(waited).toBeLessThan(2500);
    expect(await aclDb(`SELECT 1 FROM login_failures WHERE email = $1`, [user.email])).toEqual([]);
  });

  it('never checks two of 20 parallel wrong passwords for one account at once', async () => {
    const user = await createUser();
    const results = await Promise.all(
      Array.from({ length: 20 }, () => login(user.email, 'wrong password here')),
    );
    const statuses = results.map((r) => r.status).sort();
    // Attempts that start after the first ended are checked in turn; the rest are 429. Whatever
    // the interleaving, the checked ones form a strictly sequential chain, so the failure count
    // equals the 401s and never runs ahead of the growing delay.
    const checked = statuses.filter((s) => s === 401).length;
    expect(checked + statuses.filter((s) => s === 429).length).toBe(20);
    expect(checked).toBeGreaterThanOrEqual(1);
    expect(checked).toBeLessThan(20);
    const [row] = await aclDb<{ failures: number }>(`SELECT failures FROM login_failures WHERE email = $1`, [
      user.email,
    ]);
    expect(row.failures).toBe(checked);
  });

  it('frees an attempt whose replica died mid-check once its lease has passed', async () => {
    const user = await createUser();
    await aclDb(
      `INSERT INTO login_failures (email, failures, in_flight_until) VALUES ($1, 0, now() + interval '1 hour')`,
      [user.email],
    );
    expect((await login(user.email, user.password)).status).toBe(429);
    await aclDb(`UPDATE login_failures SET in_flight_until = now() - interval '1 second' WHERE email = $1`, [
      user.email,
    ]);
    expect((await login(user.email, user.password)).status).toBe(200);
  });

  it('keeps only the last 15 minutes of failures in login_failures', async () => {
    const stale = uniqueEmail('stale');
    const recent = uniqueEmail('recent');
    await aclDb(
      `INSERT INTO login_failures (email, failures, last_failed_at) VALUES
         ($1, 3, now() - interval '15 minutes 1 second'), ($2, 3, now() - interval '14 minutes 50 seconds')`,
      [stale, recent],
    );
    // Any failure prunes.
    expect((await login(uniqueEmail('nobody'), 'wrong password here')).status).toBe(401);
    const left = await aclDb<{ email: string }>(
      `SELECT email FROM login_failures WHERE email = ANY($1::text[])`,
      [[stale, recent]],
    );
    expect(left).toEqual([{ email: recent }]);
  });

  it('refuses a missing field with 422 at its loc', async () => {
    const res = await acl('/api/v1/auth/token', { json: { email: 'a@example.com' } });
    expect(res.status).toBe(422);
    expect(res.body.detail).toEqual([{ loc: ['body', 'password'], msg: 'Field required', type: 'missing' }]);
  });

  it('refuses an unknown field with 422 extra_forbidden', async () => {
    const res = await acl('/api/v1/auth/token', {
      json: { email: 'a@example.com', password: 'x', remember: true },
    });
    expect(res.status).toBe(422);
    expect(res.body.detail).toEqual([
      { loc: ['body', 'remember'], msg: expect.any(String), type: 'extra_forbidden' },
    ]);
  });

  it('accepts a urlencoded form, as an OAuth-style client sends it', async () => {
    const user = await createUser();
    const res = await acl('/api/v1/auth/token', { form: { email: user.email, password: user.password } });
    expect(res.status).toBe(200);
  });

  it('refuses a multipart body with 415 without reading it (only routes that declare multipart read one)', async () => {
    const form = new FormData();
    form.append('email', 'someone@example.com');
    form.append('file', new Blob([Buffer.alloc(256 * 1024)]), 'padding.bin');
    const res = await acl('/api/v1/auth/token', { multipart: form });
    expect(res.status).toBe(415);
    expect(res.body).toEqual({ detail: expect.any(String), code: 'unsupported_media_type' });
  });
});

describe('POST /acl/api/v1/auth/refresh (docs/api/contract.md §1)', () => {
  it('returns a new pair and retires the old refresh token', async () => {
    const user = await createUser();
    const first = await login(user.email, user.password);
    const second = await acl('/api/v1/auth/refresh', { json: { refresh_token: first.body.refresh_token } });
    expect(second.status).toBe(200);
    expect(second.body).toEqual({
      access_token: expect.any(String),
      token_type: 'Bearer',
      expires_in: 900,
      refresh_token: expect.any(String),
    });
    expect(second.body.refresh_token).not.toBe(first.body.refresh_token);
    expect(decode(second.body.access_token).payload.sub).toBe(user.id);

    const again = await acl('/api/v1/auth/refresh', { json: { refresh_token: first.body.refresh_token } });
    expect(again.status).toBe(401);
    expect(again.body).toEqual({ detail: expect.any(String), code: 'token_invalid' });
  });

  it('revokes the whole family when a retired token is reused', async () => {
    const user = await createUser();
    const first = await login(user.email, user.password);
    const second = await acl('/api/v1/auth/refresh', { json: { refresh_token: first.body.refresh_token } });
    const reuse = await acl('/api/v1/auth/refresh', { json: { refresh_token: first.body.refresh_token } });
    expect(reuse.status).toBe(401);
    // The thief's copy and the legitimate newer token are both dead now.
    const legit = await acl('/api/v1/auth/refresh', { json: { refresh_token: second.body.refresh_token } });
    expect(legit.status).toBe(401);
    expect(legit.body.code).toBe('token_invalid');
    // Other sessions of the same user are untouched.
    const other = await login(user.email, user.password);
    expect(
      (await acl('/api/v1/auth/refresh', { json: { refresh_token: other.body.refresh_token } })).status,
    ).toBe(200);
  });

  it('refuses an unknown refresh token with 401 token_invalid', async () => {
    const res = await acl('/api/v1/auth/refresh', { json: { refresh_token: 'made-up-token' } });
    expect(res.status).toBe(401);
    expect(res.body).toEqual({ detail: expect.any(String), code: 'token_invalid' });
    expect(res.headers.get('www-authenticate')).toBe('Bearer');
  });

  it('refuses an expired refresh token with 401 token_invalid', async () => {
    const user = await createUser();
    const pair = await login(user.email, user.password);
    await aclDb(`UPDATE refresh_tokens SET expires_at = now() - interval '1 minute' WHERE user_id = $1`, [
      user.id,
    ]);
    const res = await acl('/api/v1/auth/refresh', { json: { refresh_token: pair.body.refresh_token } });
    expect(res.status).toBe(401);
    expect(res.body.code).toBe('token_invalid');
  });

  it("refuses a disabled user's refresh with 401 token_invalid, and their login too", async () => {
    const user = await createUser();
    const pair = await login(user.email, user.password);
    const patch = await acl(`/api/v1/users/${user.id}`, {
      method: 'PATCH',
      token: await admin(),
      json: { status: 'DISABLED' },
    });
    expect(patch.status).toBe(200);
    const refresh = await acl('/api/v1/auth/refresh', { json: { refresh_token: pair.body.refresh_token } });
    expect(refresh.status).toBe(401);
    expect(refresh.body.code).toBe('token_invalid');
    const again = await login(user.email, user.password);
    expect(again.status).toBe(401);
    expect(again.body.code).toBe('invalid_credentials');
  });

  it('does not bring old sessions back when a disabled user is enabled again', async () => {
    const user = await createUser();
    const pair = await login(user.email, user.password);
    await acl(`/api/v1/users/${user.id}`, {
      method: 'PATCH',
      token: await admin(),
      json: { status: 'DISABLED' },
    });
    await acl(`/api/v1/users/${user.id}`, {
      method: 'PATCH',
      token: await admin(),
      json: { status: 'ACTIVE' },
    });
    expect(
      (await acl('/api/v1/auth/refresh', { json: { refresh_token: pair.body.refresh_token } })).status,
    ).toBe(401);
    expect((await login(user.email, user.password)).status).toBe(200);
  });

  it('ends a session REFRESH_MAX_AGE (30 days) after its login, however often it was refreshed', async () => {
    const user = await createUser();
    const first = await login(user.email, user.password);
    const second = await acl('/api/v1/auth/refresh', { json: { refresh_token: first.body.refresh_token } });
    expect(second.status).toBe(200);
    // The rotated token belongs to the same session: its start is the login's.
    const rows = await aclDb<{ same: boolean; capped: boolean }>(
      `SELECT count(DISTINCT session_started_at) = 1 AS same,
              bool_and(expires_at <= session_started_at + interval '30 days') AS capped
         FROM refresh_tokens WHERE user_id = $1`,
      [user.id],
    );
    expect(rows).toEqual([{ same: true, capped: true }]);
    await aclDb(
      `UPDATE refresh_tokens SET session_started_at = now() - interval '30 days 1 second' WHERE user_id = $1`,
      [user.id],
    );
    const third = await acl('/api/v1/auth/refresh', { json: { refresh_token: second.body.refresh_token } });
    expect(third.status).toBe(401);
    expect(third.body.code).toBe('token_invalid');
  });

  it('keeps a session just inside REFRESH_MAX_AGE', async () => {
    const user = await createUser();
    const first = await login(user.email, user.password);
    await aclDb(
      `UPDATE refresh_tokens SET session_started_at = now() - interval '29 days 23 hours' WHERE user_id = $1`,
      [user.id],
    );
    const second = await acl('/api/v1/auth/refresh', { json: { refresh_token: first.body.refresh_token } });
    expect(second.status).toBe(200);
    // The new token expires with the session, not a full JWT_REFRESH_TTL later.
    const [row] = await aclDb<{ left_s: number }>(
      `SELECT extract(epoch FROM expires_at - now())::int AS left_s
         FROM refresh_tokens WHERE user_id = $1 AND retired_at IS NULL`,
      [user.id],
    );
    expect(row.left_s).toBeLessThanOrEqual(3600);
    expect(row.left_s).toBeGreaterThan(3500);
  });

  it('lets exactly one of 10 racing refreshes of one token through, and the reuse revokes the family', async () => {
    const user = await createUser();
    const pair = await login(user.email, user.password);
    const results = await Promise.all(
      Array.from({ length: 10 }, () =>
        acl('/api/v1/auth/refresh', { json: { refresh_token: pair.body.refresh_token } }),
      ),
    );
    expect(results.filter((r) => r.status === 200)).toHaveLength(1);
    expect(results.filter((r) => r.status === 401)).toHaveLength(9);
    // Every token written is either retired or revoked: none was left live outside the family rule.
    const [row] = await aclDb<{ live: number; total: number }>(
      `SELECT count(*) FILTER (WHERE revoked_at IS NULL)::int AS live, count(*)::int AS total
         FROM refresh_tokens WHERE user_id = $1`,
      [user.id],
    );
    expect(row).toEqual({ live: 0, total: 2 });
  });

  it('stores refresh tokens only as hashes', async () => {
    const user = await createUser();
    const pair = await login(user.email, user.password);
    const rows = await aclDb<{ token_hash: string }>(
      `SELECT token_hash FROM refresh_tokens WHERE user_id = $1`,
      [user.id],
    );
    expect(rows).toHaveLength(1);
    expect(rows[0].token_hash).not.toContain(pair.body.refresh_token);
    expect(rows[0].token_hash).toMatch(/^[0-9a-f]{64}$/);
  });

  it('refuses a body without refresh_token with 422', async () => {
    const res = await acl('/api/v1/auth/refresh', { json: {} });
    expect(res.status).toBe(422);
    expect(res.body.detail).toEqual([
      { loc: ['body', 'refresh_token'], msg: 'Field required', type: 'missing' },
    ]);
  });
});

describe('GET /acl/.well-known/jwks.json (docs/api/contract.md §1)', () => {
  it('publishes the signing key without a token, public members only, kid = RFC 7638 thumbprint', async () => {
    const res = await acl('/.well-known/jwks.json');
    expect(res.status).toBe(200);
    const key = res.body.keys.find(
      (k: { kid: string }) => k.kid === rsaThumbprint(system().keys.publicKeyPem),
    );
    expect(key).toEqual({
      kty: 'RSA',
      n: expect.any(String),
      e: 'AQAB',
      kid: system().keys.kid,
      alg: 'RS256',
      use: 'sig',
    });
    for (const k of res.body.keys)
      for (const member of ['d', 'p', 'q', 'dp', 'dq', 'qi']) expect(k).not.toHaveProperty(member);
  });

  it('keeps the key in acl database, private half included, for the replicas', async () => {
    const rows = await aclDb<{ kid: string; private_key_pem: string }>(
      `SELECT kid, private_key_pem FROM signing_keys WHERE retired_at IS NULL`,
    );
    const published = (await acl('/.well-known/jwks.json')).body.keys.map((k: { kid: string }) => k.kid);
    expect(rows).toHaveLength(1);
    expect(published).toContain(rows[0].kid);
    expect(rows[0].private_key_pem).toMatch(/^-----BEGIN PRIVATE KEY-----/);
  });
});

describe('GET /acl/api/v1/users/me (docs/api/contract.md §4a)', () => {
  it("answers the caller's profile with exactly the contract's fields", async () => {
    const manager = await createUser();
    const user = await createUser({
      first_name: 'Rui',
      last_name: 'Costa',
      phone_number: '+351 912 345 678',
      manager_id: manager.id,
      roles: ['SALES', 'BM'],
    });
    const token = (await login(user.email, user.password)).body.access_token;
    const res = await acl('/api/v1/users/me', { token });
    expect(res.status).toBe(200);
    expect(res.body).toEqual({
      id: user.id,
      email: user.email,
      name: 'Rui Costa',
      first_name: 'Rui',
      last_name: 'Costa',
      phone_number: '+351 912 345 678',
      employee_number: null,
      status: 'ACTIVE',
      roles: ['BM', 'SALES'],
      groups: [],
      manager_id: manager.id,
      date_joined: expect.stringMatching(/^\d{4}-\d{2}-\d{2}T\d{2}:\d{2}:\d{2}\.\d{3}Z$/),
    });
  });

  it('answers 401 not_authenticated without a token', async () => {
    const res = await acl('/api/v1/users/me');
    expect(res.status).toBe(401);
    expect(res.body.code).toBe('not_authenticated');
  });

  it('answers 401 token_expired for an expired token', async () => {
    const res = await acl('/api/v1/users/me', { token: mintToken(system().keys, { expiresIn: -60 }) });
    expect(res.status).toBe(401);
    expect(res.body.code).toBe('token_expired');
  });

  it('answers 404 for a valid token whose user does not exist', async () => {
    const res = await acl('/api/v1/users/me', { token: tokenWith([]) });
    expect(res.status).toBe(404);
    expect(res.body).toEqual({ detail: expect.any(String), code: 'not_found' });
  });
});
