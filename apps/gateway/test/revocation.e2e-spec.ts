/**
 * Revocation within seconds (docs/api/acl.md, "Revocation"): disabling a user, taking a role
 * away and `POST /acl/api/v1/auth/revoke` raise the user's token version; acl, the other apps and
 * the gateway refuse older tokens with 401 `token_revoked` within 5 s, open websockets close with
 * 4401, refresh tokens issued before are retired, and a new login works at once. Real acl,
 * inventory and chat-notifications processes behind the gateway, on the real NATS.
 */
import { once } from 'node:events';
import { randomUUID } from 'node:crypto';
import {
  adminToken,
  call,
  eventually,
  freePort,
  rpcTestClientForFile,
  spawnDist,
  stack,
  testEnv,
  waitReady,
} from '@media/testing';
import WebSocket from 'ws';

const nats = rpcTestClientForFile(() => testEnv.natsUrl);
let gw: string;

beforeAll(() => {
  gw = stack().gatewayUrl;
});

/** A read in each app: acl's profile, inventory's bookings (SALES), chat's rooms (anyone). */
const READS = ['/acl/api/v1/users/me', '/inventory/api/v1/bookings', '/api/v1/chat/rooms'];

interface Person {
  id: string;
  email: string;
  password: string;
  access: string;
  refresh: string;
}

async function login(email: string, password: string): Promise<{ access: string; refresh: string }> {
  const res = await call(gw, '/acl/api/v1/auth/token', { json: { email, password } });
  expect(res.status).toBe(200);
  return { access: res.body.access_token, refresh: res.body.refresh_token };
}

async function person(roles: string[] = ['SALES']): Promise<Person> {
  const email = `revoked-${randomUUID()}@example.com`;
  const password = 'a-long-password-1234';
  const created = await call(gw, '/acl/api/v1/users', {
    token: await adminToken(),
    json: { email, password, first_name: 'Rita', last_name: 'Revoked', roles },
  });
  expect(created.status).toBe(201);
  return { id: created.body.id, email, password, ...(await login(email, password)) };
}

async function statuses(token: string): Promise<number[]> {
  return Promise.all(READS.map(async (path) => (await call(gw, path, { token })).status));
}

/** Every app answers 401 token_revoked (with WWW-Authenticate: Bearer), within 5 s. */
async function expectRevokedEverywhere(token: string): Promise<void> {
  const answers = await eventually(
    () => Promise.all(READS.map((path) => call(gw, path, { token }))),
    (all) => all.every((res) => res.status === 401),
  );
  for (const [i, res] of answers.entries()) {
    expect([READS[i], res.status, res.body]).toEqual([
      READS[i],
      401,
      { detail: expect.any(String), code: 'token_revoked' },
    ]);
    expect(res.headers.get('www-authenticate')).toBe('Bearer');
  }
}

async function openSocket(token: string): Promise<WebSocket> {
  const socket = new WebSocket(`${gw.replace(/^http/, 'ws')}/api/v1/ws`, {
    headers: { authorization: `Bearer ${token}` },
  });
  await once(socket, 'open');
  return socket;
}

describe('disabling a user', () => {
  it('refuses its tokens in acl, inventory, chat and the gateway within 5 s, and retires its refresh token', async () => {
    const rita = await person();
    expect(await statuses(rita.access)).toEqual([200, 200, 200]);
    const disabled = await call(gw, `/acl/api/v1/users/${rita.id}`, {
      method: 'PATCH',
      token: await adminToken(),
      json: { status: 'DISABLED' },
    });
    expect(disabled.status).toBe(200);
    await expectRevokedEverywhere(rita.access);
    // The gateway refuses it itself, before forwarding: content is not even running in this stack.
    const atGateway = await call(gw, '/content/api/v1/lineup', { token: rita.access });
    expect([atGateway.status, atGateway.body]).toEqual([
      401,
      { detail: expect.any(String), code: 'token_revoked' },
    ]);
    const refresh = await call(gw, '/acl/api/v1/auth/refresh', { json: { refresh_token: rita.refresh } });
    expect(refresh.status).toBe(401);
    expect(refresh.body).toEqual({ detail: expect.any(String), code: 'token_invalid' });
  });

  it('closes its open websocket with 4401', async () => {
    const rita = await person();
    const socket = await openSocket(rita.access);
    const closed = once(socket, 'close');
    await call(gw, `/acl/api/v1/users/${rita.id}`, {
      method: 'PATCH',
      token: await adminToken(),
      json: { status: 'DISABLED' },
    });
    const [code] = (await closed) as [number, Buffer];
    expect(code).toBe(4401);
  });
});

describe('taking a role away', () => {
  it('revokes the tokens that carried it; a new login works at once with what is left', async () => {
    const rita = await person(['SALES', 'EDITOR']);
    const changed = await call(gw, `/acl/api/v1/users/${rita.id}`, {
      method: 'PATCH',
      token: await adminToken(),
      json: { roles: ['EDITOR'] },
    });
    expect(changed.status).toBe(200);
    await expectRevokedEverywhere(rita.access);
    const fresh = await login(rita.email, rita.password);
    expect(await statuses(fresh.access)).toEqual([200, 403, 200]);
  });
});

describe('POST /acl/api/v1/auth/revoke', () => {
  it('revokes the caller its own tokens (no body): 204, older tokens refused, a new login works at once', async () => {
    const rita = await person();
    const other = await login(rita.email, rita.password);
    const res = await call(gw, '/acl/api/v1/auth/revoke', { method: 'POST', token: rita.access });
    expect(res.status).toBe(204);
    expect(res.text).toBe('');
    await expectRevokedEverywhere(rita.access);
    await expectRevokedEverywhere(other.access);
    const refresh = await call(gw, '/acl/api/v1/auth/refresh', { json: { refresh_token: other.refresh } });
    expect(refresh.status).toBe(401);
    const fresh = await login(rita.email, rita.password);
    expect(await statuses(fresh.access)).toEqual([200, 200, 200]);
  });

  it('lets an administrator revoke another user: 204, then 401 token_revoked; 404 for an unknown user', async () => {
    const rita = await person();
    const admin = await adminToken();
    const res = await call(gw, '/acl/api/v1/auth/revoke', { token: admin, json: { user_id: rita.id } });
    expect(res.status).toBe(204);
    await expectRevokedEverywhere(rita.access);
    expect(await statuses(admin)).toEqual([200, 200, 200]);
    // A form says the same as JSON.
    const again = await person();
    const form = await call(gw, '/acl/api/v1/auth/revoke', { token: admin, form: { user_id: again.id } });
    expect(form.status).toBe(204);
    await expectRevokedEverywhere(again.access);
    const unknown = await call(gw, '/acl/api/v1/auth/revoke', {
      token: admin,
      json: { user_id: randomUUID() },
    });
    expect(unknown.status).toBe(404);
    expect(unknown.body).toMatchObject({ code: 'not_found' });
  });

  it('answers 403 to a user_id without users:admin, even its own, and revokes nothing', async () => {
    const rita = await person();
    for (const user_id of [rita.id, randomUUID(), 'not-a-uuid']) {
      const res = await call(gw, '/acl/api/v1/auth/revoke', { token: rita.access, json: { user_id } });
      expect([user_id, res.status, res.body]).toEqual([
        user_id,
        403,
        { detail: 'Requires the permission users:admin.', code: 'forbidden' },
      ]);
    }
    expect(await statuses(rita.access)).toEqual([200, 200, 200]);
  });

  it('answers 422 to an administrator naming a malformed id', async () => {
    const res = await call(gw, '/acl/api/v1/auth/revoke', {
      token: await adminToken(),
      json: { user_id: 'not-a-uuid' },
    });
    expect(res.status).toBe(422);
    expect(res.body.detail[0]).toMatchObject({ loc: ['body', 'user_id'] });
  });
});

describe('NATS-borne calls', () => {
  it('refuses a request carrying a revoked token version in its meta with 401 token_revoked', async () => {
    const rita = await person();
    await call(gw, '/acl/api/v1/auth/revoke', { method: 'POST', token: rita.access });
    await expectRevokedEverywhere(rita.access);
    const packet = {
      id: randomUUID(),
      pattern: 'acl.users.get-many',
      data: { data: { ids: [rita.id] }, meta: { user_id: rita.id, user_ver: 0 } },
    };
    const reply = (
      await nats.nc.request('acl.users.get-many', JSON.stringify(packet), { timeout: 3000 })
    ).json<{
      err?: { status: number; code: string };
    }>();
    expect(reply.err).toMatchObject({ status: 401, code: 'token_revoked' });
    // The same call with the current version goes through.
    const current = {
      ...packet,
      id: randomUUID(),
      data: { ...packet.data, meta: { user_id: rita.id, user_ver: 1 } },
    };
    const ok = (
      await nats.nc.request('acl.users.get-many', JSON.stringify(current), { timeout: 3000 })
    ).json<{
      response?: { id: string }[];
    }>();
    expect(ok.response?.map((u) => u.id)).toEqual([rita.id]);
  });
});

describe('a process that starts after a revocation', () => {
  it('learns it from acl before it trusts an older token: 503 until then, never 200, then 401 token_revoked', async () => {
    const rita = await person();
    await call(gw, '/acl/api/v1/auth/revoke', { method: 'POST', token: rita.access });
    await expectRevokedEverywhere(rita.access);
    const port = await freePort();
    const gateway = spawnDist('gateway', {
      ...stack().env,
      GATEWAY_PORT: String(port),
      PORT: String(port),
      // The stack's gateway holds its metrics port: this one takes any free one.
      GATEWAY_METRICS_PORT: '0',
    });
    try {
      const base = `http://127.0.0.1:${port}`;
      await waitReady(`${base}/health/live`, gateway);
      // content is not running in this stack: only the new gateway itself can answer 401.
      const seen: number[] = [];
      const last = await eventually(
        async () => {
          const res = await call(base, '/content/api/v1/lineup', { token: rita.access });
          seen.push(res.status);
          return res;
        },
        (res) => res.status !== 503,
      );
      expect([last.status, last.body]).toEqual([401, { detail: expect.any(String), code: 'token_revoked' }]);
      expect(seen.filter((status) => status !== 503 && status !== 401)).toEqual([]);
    } finally {
      await gateway.stop();
    }
  });
});
