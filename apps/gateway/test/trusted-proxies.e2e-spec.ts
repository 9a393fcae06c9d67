/**
 * TRUSTED_PROXIES at the apps: X-Forwarded-Proto/-Host build pagination links only when
 * they come from a configured proxy (the gateway); from anyone else they are ignored.
 */
import { randomBytes } from 'node:crypto';
import {
  createDatabases,
  dropDatabases,
  eventually,
  freePort,
  generateTestKeys,
  mintToken,
} from '@media/testing';
import { aclEnv, spawnDist, type DistProcess } from './support/processes';

let database: string;
let acl: DistProcess | undefined;
let url: string;
let admin: string;

beforeAll(async () => {
  database = `e2e_proxies_${Date.now()}_${randomBytes(3).toString('hex')}`;
  await createDatabases([database]);
  const port = await freePort();
  const keys = generateTestKeys();
  // Only 10.0.0.0/8 speaks for clients here: the test's own loopback address does not.
  acl = spawnDist('acl', { ...aclEnv(port, database, keys), TRUSTED_PROXIES: '10.0.0.0/8' });
  url = `http://127.0.0.1:${port}`;
  await eventually(
    async () => (await fetch(`${url}/acl/health/ready`).catch(() => undefined))?.ok === true,
    (ok) => ok,
    { timeoutMs: 60_000, intervalMs: 20, orThrow: `acl ready (${acl.output()})` },
  );
  admin = mintToken(keys, { permissions: ['*'], roles: ['ADMIN'] });
  const created = await fetch(`${url}/acl/api/v1/users`, {
    method: 'POST',
    headers: { authorization: `Bearer ${admin}`, 'content-type': 'application/json' },
    body: JSON.stringify({
      email: 'second@example.com',
      password: 'second-password-1234',
      first_name: 'Second',
      last_name: 'User',
    }),
  });
  expect(created.status).toBe(201);
}, 90_000);

afterAll(async () => {
  if (acl?.child.exitCode === null) acl.child.kill('SIGKILL');
  await dropDatabases([database]);
});

it('ignores X-Forwarded-Host/-Proto from a peer outside TRUSTED_PROXIES when building links', async () => {
  const res = await fetch(`${url}/acl/api/v1/users?page_size=1`, {
    headers: {
      authorization: `Bearer ${admin}`,
      'x-forwarded-host': 'evil.example',
      'x-forwarded-proto': 'https',
    },
  });
  expect(res.status).toBe(200);
  const body = (await res.json()) as { next: string };
  expect(new URL(body.next).origin).toBe(url);
});

it('refuses a malformed TRUSTED_PROXIES at start, naming it', async () => {
  const port = await freePort();
  const bad = spawnDist('acl', {
    ...aclEnv(port, database, generateTestKeys()),
    TRUSTED_PROXIES: '10.0.0.0/99',
  });
  const code = await new Promise<number | null>((resolve) => bad.child.once('exit', resolve));
  expect(code).toBe(1);
  expect(bad.output()).toMatch(/TRUSTED_PROXIES/);
});
