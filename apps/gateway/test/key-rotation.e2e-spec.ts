/**
 * A key rotation never refuses a valid token (docs/api/contract.md §2 "What is not public"): acl
 * publishes the new key at once and signs with it only once every replica publishes it, and
 * every verifier (the gateway, its websocket upgrade, every app) looks a new `kid` up at once.
 * Each app has just fetched the JWKS when the rotation happens, so a verifier that held its
 * refresh back for a cooldown would refuse the first tokens of the new key.
 */
import type { IncomingMessage } from 'node:http';
import { once } from 'node:events';
import { SERVICE_NAMES, type ServiceName } from '@media/contracts';
import {
  adminToken,
  call,
  eventually,
  generateTestKeys,
  mintToken,
  queryDatabase,
  stack,
  type StackInfo,
} from '@media/testing';
import { WebSocket } from 'ws';

/** One authenticated read per app, each answered 200 to the administrator. */
const READS: Record<ServiceName, string> = {
  acl: '/acl/api/v1/users/me',
  content: '/content/api/v1/story-categories',
  assignment: '/assignment/api/v1/tasks',
  inventory: '/inventory/api/v1/bookings',
  commercial: '/commercial/api/v1/clients',
  payment: '/payment/api/v1/collections',
  documents: '/documents/api/v1/documents',
  'chat-notifications': '/api/v1/notifications/preferences',
};

let system: StackInfo;

beforeAll(() => {
  system = stack();
});

const kidOf = (token: string): string =>
  (JSON.parse(Buffer.from(token.split('.')[0], 'base64url').toString()) as { kid: string }).kid;

async function logIn(): Promise<string> {
  const login = await call(system.gatewayUrl, '/acl/api/v1/auth/token', { json: system.admin });
  expect(login.status).toBe(200);
  return login.body.access_token as string;
}

/** 101 when the gateway's websocket upgrade to chat-notifications opens, else its status. */
async function upgrade(token: string): Promise<number> {
  const socket = new WebSocket(`${system.gatewayUrl.replace(/^http/, 'ws')}/api/v1/ws`, {
    headers: { authorization: `Bearer ${token}` },
  });
  socket.on('error', () => undefined);
  const outcome = await Promise.race([
    once(socket, 'open').then(() => 101),
    once(socket, 'unexpected-response').then(([, res]) => (res as IncomingMessage).statusCode ?? 0),
  ]);
  socket.terminate();
  return outcome;
}

/** Every app's read and the websocket upgrade, all at once, with one token. */
async function everyAppAtOnce(token: string): Promise<Record<string, number>> {
  const reads = SERVICE_NAMES.map(async (app) => [
    app,
    (await call(system.gatewayUrl, READS[app], { token })).status,
  ]);
  const answers = await Promise.all([...reads, upgrade(token).then((status) => ['websocket', status])]);
  return Object.fromEntries(answers);
}

const allAnswered = {
  ...Object.fromEntries(SERVICE_NAMES.map((app) => [app, 200])),
  websocket: 101,
};

it('rotates the key while every verifier has just fetched the JWKS: every app and the websocket accept the tokens of both keys', async () => {
  const admin = await adminToken(system);
  // The keys of the stack are older than a minute for the rotation rules (another file may have
  // rotated them moments ago): rotating is what is tested here, not its pace.
  await queryDatabase(
    system.databases.acl,
    `UPDATE signing_keys SET created_at = created_at - interval '1 hour'`,
  );
  // Each app (and the gateway) fetches the JWKS now: a kid nobody publishes makes them ask.
  const stranger = mintToken(generateTestKeys());
  const primed = await Promise.all(
    [system.gatewayUrl, ...SERVICE_NAMES.map((app) => system.urls[app])].map(
      async (base, index) =>
        (await call(base, index === 0 ? READS.acl : READS[SERVICE_NAMES[index - 1]], { token: stranger }))
          .status,
    ),
  );
  expect(primed).toEqual(Array(SERVICE_NAMES.length + 1).fill(401));

  const rotated = await call(system.gatewayUrl, '/acl/api/v1/keys/rotate', { method: 'POST', token: admin });
  expect(rotated.status).toBe(201);
  expect(rotated.body).toEqual({
    kid: expect.any(String),
    signs_from: expect.any(String),
    retiring: expect.any(Array),
    unpublished: [],
  });
  const newKid = rotated.body.kid as string;
  expect(Date.parse(rotated.body.signs_from)).toBeGreaterThan(Date.now());

  // Any token of a published key is accepted at once, the moment it is published: one signed
  // here with the new key (read from acl's database), while every verifier's set predates it.
  const [row] = await queryDatabase<{ private_key_pem: string }>(
    system.databases.acl,
    'SELECT private_key_pem FROM signing_keys WHERE kid = $1',
    [newKid],
  );
  const claims = JSON.parse(Buffer.from(admin.split('.')[1], 'base64url').toString()) as { sub: string };
  const signedAtOnce = mintToken(
    { privateKeyPem: row.private_key_pem, publicKeyPem: '', kid: newKid },
    { sub: claims.sub, roles: ['ADMIN'], permissions: ['*'] },
  );
  expect(await everyAppAtOnce(signedAtOnce)).toEqual(allAnswered);

  // A login right after the rotation, and every app at once.
  const first = await logIn();
  expect(await everyAppAtOnce(first)).toEqual(allAnswered);

  // Once the new key signs: its first token, every app at once.
  const fresh = await eventually(logIn, (token) => kidOf(token) === newKid, 30_000);
  expect(await everyAppAtOnce(fresh)).toEqual(allAnswered);
  // And the token from before the switch is still good everywhere.
  expect(await everyAppAtOnce(first)).toEqual(allAnswered);
}, 60_000);

it('refuses a second rotation within a minute with 429 rate_limited and Retry-After', async () => {
  const admin = await adminToken(system);
  await queryDatabase(
    system.databases.acl,
    `UPDATE signing_keys SET created_at = created_at - interval '1 hour'`,
  );
  const first = await call(system.gatewayUrl, '/acl/api/v1/keys/rotate', { method: 'POST', token: admin });
  expect(first.status).toBe(201);
  const second = await call(system.gatewayUrl, '/acl/api/v1/keys/rotate', { method: 'POST', token: admin });
  expect(second.status).toBe(429);
  expect(second.body).toEqual({
    detail: 'The signing key was rotated less than a minute ago.',
    code: 'rate_limited',
  });
  expect(Number(second.headers.get('retry-after'))).toBeGreaterThan(50);
});
