/**
 * Two acl replicas started at the same moment on one fresh database, without JWT_PRIVATE_KEY:
 * they must generate one signing key between them, create the first administrator once, and
 * accept each other's tokens; a restart changes none of it (docs/api/contract.md §1, §4a).
 */
import type { ChildProcess } from 'node:child_process';
import {
  call,
  createDatabases,
  databaseUrl,
  dropDatabases,
  eventually,
  freePort,
  queryDatabase,
  spawnDist,
  stopChild,
  waitReady,
} from '@media/testing';
import { system } from './support';

const database = `e2e_${Date.now()}_acl_replicas`;
const admin = { email: 'first-admin@example.com', password: 'replica-admin-password' };
const running: ChildProcess[] = [];

async function startReplica(port: number): Promise<{ url: string; child: ChildProcess }> {
  const { JWT_PRIVATE_KEY: _unused, ...env } = system().env;
  const url = `http://127.0.0.1:${port}`;
  const replica = spawnDist('acl', {
    ...env,
    PORT: String(port),
    ACL_PORT: String(port),
    DATABASE_URL: databaseUrl(database),
    JWT_JWKS_URL: `${url}/acl/.well-known/jwks.json`,
    ADMIN_EMAIL: admin.email,
    ADMIN_PASSWORD: admin.password,
    LOG_LEVEL: 'warn',
  });
  running.push(replica.child);
  await waitReady(`${url}/acl/health/ready`, replica, 30_000);
  return { url, child: replica.child };
}

beforeAll(async () => {
  await createDatabases([database]);
}, 30_000);

afterAll(async () => {
  await Promise.all(running.map((child) => stopChild(child)));
  await dropDatabases([database]);
});

const db = (sql: string) => queryDatabase(databaseUrl(database), sql);
let live: { url: string }[] = [];
/** The replicas the rotation test uses: those the first test left running, or two of its own when it runs alone. */
async function twoReplicas(): Promise<{ url: string }[]> {
  if (live.length === 0)
    live = await Promise.all([freePort(), freePort()].map(async (p) => startReplica(await p)));
  return live;
}
const kids = async (url: string) =>
  ((await call(url, '/acl/.well-known/jwks.json')).body.keys as { kid: string }[]).map((k) => k.kid);
const kidOf = (token: string) =>
  JSON.parse(Buffer.from(token.split('.')[0], 'base64url').toString()).kid as string;

it('agrees on one generated key and one administrator when two replicas start at once, and after a restart', async () => {
  const [a, b] = await Promise.all([freePort(), freePort()].map(async (p) => startReplica(await p)));

  const [jwksA, jwksB] = await Promise.all([
    call(a.url, '/acl/.well-known/jwks.json'),
    call(b.url, '/acl/.well-known/jwks.json'),
  ]);
  expect(jwksA.body.keys).toHaveLength(1);
  expect(jwksB.body).toEqual(jwksA.body);
  expect(await db(`SELECT count(*)::int AS n FROM signing_keys`)).toEqual([{ n: 1 }]);
  expect(await db(`SELECT count(*)::int AS n FROM users`)).toEqual([{ n: 1 }]);

  // A token issued by one replica is accepted by the other.
  const login = await call(a.url, '/acl/api/v1/auth/token', { json: admin });
  expect(login.status).toBe(200);
  const me = await call(b.url, '/acl/api/v1/users/me', { token: login.body.access_token });
  expect(me.status).toBe(200);
  expect(me.body).toMatchObject({ email: admin.email, roles: ['ADMIN'], status: 'ACTIVE' });
  // Rotation works across replicas too: the refresh token is in the shared database.
  const refreshed = await call(b.url, '/acl/api/v1/auth/refresh', {
    json: { refresh_token: login.body.refresh_token },
  });
  expect(refreshed.status).toBe(200);

  await stopChild(a.child);
  const again = await startReplica(await freePort());
  expect((await call(again.url, '/acl/.well-known/jwks.json')).body).toEqual(jwksA.body);
  expect(await db(`SELECT count(*)::int AS n FROM users`)).toEqual([{ n: 1 }]);
  expect((await call(again.url, '/acl/api/v1/auth/token', { json: admin })).status).toBe(200);

  // Login throttling holds across replicas: the attempt in flight is recorded in the database.
  await db(
    `INSERT INTO login_failures (email, failures, last_failed_at) VALUES ('${admin.email}', 10, now())`,
  );
  const wrong = { email: admin.email, password: 'not-the-password-at-all' };
  const first = call(b.url, '/acl/api/v1/auth/token', { json: wrong });
  // The first attempt holds the account's row while it waits its delay.
  await eventually(
    () => db(`SELECT 1 FROM login_failures WHERE email = '${admin.email}' AND in_flight_until > now()`),
    (rows) => rows.length === 1,
  );
  const racing = await Promise.all(
    [b.url, again.url, again.url, b.url].map((url) => call(url, '/acl/api/v1/auth/token', { json: admin })),
  );
  expect(racing.map((r) => r.status)).toEqual([429, 429, 429, 429]);
  expect((await first).status).toBe(401);
  expect((await call(again.url, '/acl/api/v1/auth/token', { json: admin })).status).toBe(200);
  live = [b, again];
}, 60_000);

it('rotates the signing key on one replica; both keys verify during the grace, the other replica signs with the new one, then the old one retires', async () => {
  const [a, b] = await twoReplicas();
  const before = await call(a.url, '/acl/.well-known/jwks.json');
  const oldKid = before.body.keys[0].kid as string;
  const session = await call(a.url, '/acl/api/v1/auth/token', { json: admin });
  const oldToken = session.body.access_token as string;
  expect(kidOf(oldToken)).toBe(oldKid);

  const user = await call(a.url, '/acl/api/v1/users', {
    token: oldToken,
    json: { email: 'plain@example.com', password: 'plain-password-123', first_name: 'P', last_name: 'U' },
  });
  const plain = await call(a.url, '/acl/api/v1/auth/token', {
    json: { email: 'plain@example.com', password: 'plain-password-123' },
  });
  expect(user.status).toBe(201);
  const refused = await call(a.url, '/acl/api/v1/keys/rotate', {
    method: 'POST',
    token: plain.body.access_token,
  });
  expect(refused.status).toBe(403);

  // The first key was made at this acl's first start: a rotation within a minute of it is refused.
  const early = await call(a.url, '/acl/api/v1/keys/rotate', { method: 'POST', token: oldToken });
  expect(early.status).toBe(429);
  expect(early.body.code).toBe('rate_limited');
  await db(`UPDATE signing_keys SET created_at = created_at - interval '2 minutes'`);

  const rotated = await call(a.url, '/acl/api/v1/keys/rotate', { method: 'POST', token: oldToken });
  expect(rotated.status).toBe(201);
  expect(rotated.body).toEqual({
    kid: expect.any(String),
    signs_from: expect.any(String),
    retiring: [{ kid: oldKid, retires_at: expect.any(String) }],
    unpublished: [],
  });
  const grace = Date.parse(rotated.body.retiring[0].retires_at) - Date.now();
  expect(grace).toBeGreaterThan(55 * 60_000); // JWT_KEY_GRACE, 1 h by default
  const newKid = rotated.body.kid as string;

  // Published at once by the rotating replica, newest first; within a reload by the other.
  expect(await kids(a.url)).toEqual([newKid, oldKid]);
  const published = (ids: string[]) => ids.join() === [newKid, oldKid].join();
  expect(await eventually(() => kids(b.url), published, 15_000)).toEqual([newKid, oldKid]);
  // The new key signs only once both replicas publish it (signs_from); until then the old one.
  const early2 = await call(b.url, '/acl/api/v1/auth/token', { json: admin });
  if (Date.now() < Date.parse(rotated.body.signs_from)) expect(kidOf(early2.body.access_token)).toBe(oldKid);
  const fresh = await eventually(
    () => call(b.url, '/acl/api/v1/auth/token', { json: admin }),
    (res) => res.status === 200 && kidOf(res.body.access_token) === newKid,
    30_000,
  );
  expect(kidOf(fresh.body.access_token)).toBe(newKid);

  // Tokens of both keys are in flight; each replica accepts both.
  for (const replica of [a, b])
    for (const token of [oldToken, fresh.body.access_token])
      expect((await call(replica.url, '/acl/api/v1/users/me', { token })).status).toBe(200);

  // After the grace the old key is no longer published; a restart does not bring it back.
  await db(`UPDATE signing_keys SET retired_at = now() - interval '1 second' WHERE kid = '${oldKid}'`);
  for (const replica of [a, b])
    expect(
      await eventually(
        () => kids(replica.url),
        (ids) => ids.join() === newKid,
        15_000,
      ),
    ).toEqual([newKid]);
}, 60_000);

it('publishes at most JWKS_MAX_KEYS (5) keys: a rotation trims the oldest once its tokens cannot be valid, and is refused before', async () => {
  const [a] = await twoReplicas();
  const token = (await call(a.url, '/acl/api/v1/auth/token', { json: admin })).body.access_token as string;
  const rotate = () => call(a.url, '/acl/api/v1/keys/rotate', { method: 'POST', token });
  // Each rotation a few minutes after the one before (the keys made older in the database).
  const older = (minutes: number) =>
    db(`UPDATE signing_keys SET created_at = created_at - interval '${minutes} minutes'`);
  const first = await kids(a.url);
  expect(first).toHaveLength(1);
  for (let published = 2; published <= 5; published++) {
    await older(2);
    const rotated = await rotate();
    expect(rotated.status).toBe(201);
    expect(rotated.body.unpublished).toEqual([]);
    expect(await kids(a.url)).toHaveLength(published);
  }

  // A sixth key would unpublish the first, which stopped signing only minutes ago: its tokens may
  // still be valid (JWT_ACCESS_TTL 15 min + the JWKS max-age 5 min).
  await older(2);
  const refused = await rotate();
  expect(refused.status).toBe(429);
  expect(refused.body).toEqual({
    detail: 'A rotation now would unpublish a key whose tokens may still be valid (JWKS_MAX_KEYS is 5).',
    code: 'rate_limited',
  });
  expect(Number(refused.headers.get('retry-after'))).toBeGreaterThan(60);
  expect(await kids(a.url)).toHaveLength(5);

  // Twenty minutes later it may go.
  await older(20);
  const trimmed = await rotate();
  expect(trimmed.status).toBe(201);
  expect(trimmed.body.unpublished).toEqual(first);
  const published = await kids(a.url);
  expect(published).toHaveLength(5);
  expect(published).not.toContain(first[0]);
  expect(published[0]).toBe(trimmed.body.kid);
}, 60_000);
