/**
 * Which hosts the gateway serves and which origin absolute URLs start with (docs/api/contract.md
 * §2 "Caching and hosts"): a `Host` outside ALLOWED_HOSTS is 400 `host_not_allowed` before
 * routing and tokens, `/health/*` excepted; `X-Forwarded-Host` counts only from TRUSTED_PROXIES;
 * pagination links start with PUBLIC_URL when it is set, else with the request's host.
 */
import { randomUUID } from 'node:crypto';
import { request } from 'node:http';
import { SERVICE_NAMES, envPrefix } from '@media/contracts';
import { adminToken, call, stack, type StackInfo } from '@media/testing';
import { startGateway, type RunningGateway } from '../src/start';

interface Answer {
  status: number;
  body: any;
}

/** A GET with a Host of the test's choosing (fetch would set its own). */
function get(port: number, path: string, headers: Record<string, string>): Promise<Answer> {
  return new Promise((resolve, reject) => {
    const req = request({ host: '127.0.0.1', port, path, headers }, (res) => {
      const chunks: Buffer[] = [];
      res.on('data', (chunk: Buffer) => chunks.push(chunk));
      res.on('end', () => {
        const text = Buffer.concat(chunks).toString('utf8');
        resolve({ status: res.statusCode ?? 0, body: text ? JSON.parse(text) : undefined });
      });
    });
    req.on('error', reject);
    req.end();
  });
}

/** The status of a websocket handshake answered with an HTTP error. */
function upgradeStatus(port: number, path: string, headers: Record<string, string>): Promise<number> {
  return new Promise((resolve, reject) => {
    const req = request({
      host: '127.0.0.1',
      port,
      path,
      headers: {
        connection: 'Upgrade',
        upgrade: 'websocket',
        'sec-websocket-version': '13',
        'sec-websocket-key': 'dGhlIHNhbXBsZSBub25jZQ==',
        ...headers,
      },
    });
    req.on('response', (res) => {
      res.resume();
      resolve(res.statusCode ?? 0);
    });
    req.on('upgrade', (_res, socket) => {
      socket.destroy();
      resolve(101);
    });
    req.on('error', reject);
    req.end();
  });
}

const refused = (host: string) => ({
  status: 400,
  body: {
    detail: `The host "${host}" is not served here; add it to ALLOWED_HOSTS.`,
    code: 'host_not_allowed',
  },
});

let system: StackInfo;
let port: number;
let admin: string;
const gateways: RunningGateway[] = [];

beforeAll(async () => {
  system = stack();
  port = Number(new URL(system.gatewayUrl).port);
  admin = await adminToken(system);
  // A second user, so a list of one per page has a next page.
  const created = await call(system.gatewayUrl, '/acl/api/v1/users', {
    token: admin,
    json: {
      email: `hosts-${randomUUID()}@example.com`,
      password: 'second-password-1234',
      first_name: 'Second',
      last_name: 'User',
    },
  });
  expect(created.status).toBe(201);
});

afterAll(async () => {
  await Promise.all(gateways.map((gateway) => gateway.close()));
});

/** A gateway of the test's own in front of the stack's apps. */
async function ownGateway(env: Record<string, string>): Promise<number> {
  const upstreams: Record<string, string> = {};
  for (const app of SERVICE_NAMES) upstreams[`${envPrefix(app)}_URL`] = system.urls[app];
  const gateway = await startGateway({
    ...upstreams,
    GATEWAY_PORT: '0',
    GATEWAY_METRICS_PORT: '0',
    JWT_JWKS_URL: system.env.JWT_JWKS_URL,
    LOG_LEVEL: 'silent',
    ...env,
  });
  gateways.push(gateway);
  return gateway.port;
}

describe('ALLOWED_HOSTS (default: localhost, 127.0.0.1, [::1])', () => {
  it('refuses another Host with 400 host_not_allowed, before the token is looked at', async () => {
    const authorization = `Bearer ${admin}`;
    expect(await get(port, '/acl/api/v1/users/me', { host: 'evil.example' })).toEqual(
      refused('evil.example'),
    );
    expect(await get(port, '/acl/api/v1/users/me', { host: 'evil.example:80', authorization })).toEqual(
      refused('evil.example'),
    );
    // Routing comes after the host too: an unknown segment is not a 404 for a host not served.
    expect(await get(port, '/nowhere', { host: 'Evil.Example' })).toEqual(refused('evil.example'));
  });

  it('serves the default names whatever their port', async () => {
    for (const host of ['localhost', 'localhost:1234', '127.0.0.1:9', '[::1]:3000']) {
      const me = await get(port, '/acl/api/v1/users/me', { host, authorization: `Bearer ${admin}` });
      expect([host, me.status]).toEqual([host, 200]);
    }
  });

  it('answers /health/* for any host (probes use pod addresses)', async () => {
    expect((await get(port, '/health/live', { host: '10.1.2.3:3000' })).status).toBe(200);
    expect((await get(port, '/acl/health/live', { host: 'evil.example' })).status).toBe(200);
  });

  it("judges a trusted proxy's X-Forwarded-Host (loopback is trusted by default)", async () => {
    const answer = await get(port, '/acl/api/v1/users/me', {
      host: 'localhost',
      'x-forwarded-host': 'evil.example',
      authorization: `Bearer ${admin}`,
    });
    expect(answer).toEqual(refused('evil.example'));
  });

  it('refuses a websocket upgrade for another host', async () => {
    expect(
      await upgradeStatus(port, '/api/v1/ws', { host: 'evil.example', authorization: `Bearer ${admin}` }),
    ).toBe(400);
  });

  it('builds pagination links from the request host when PUBLIC_URL is unset', async () => {
    const list = await get(port, '/acl/api/v1/users?page_size=1', {
      host: 'localhost:4321',
      authorization: `Bearer ${admin}`,
    });
    expect(list.status).toBe(200);
    expect(list.body.next).toMatch(/^http:\/\/localhost:4321\/acl\/api\/v1\/users\?/);
  });

  it('refuses a malformed ALLOWED_HOSTS at start, naming it', async () => {
    await expect(ownGateway({ ALLOWED_HOSTS: 'example.com:443' })).rejects.toThrow(
      'Invalid configuration: ALLOWED_HOSTS "example.com:443" is not a host name, an address or .domain',
    );
  });
});

describe('PUBLIC_URL', () => {
  it('starts every link with it and adds its host to the allowed ones', async () => {
    const own = await ownGateway({
      PUBLIC_URL: 'https://backoffice.example.com',
      ALLOWED_HOSTS: '.internal.example',
      TRUSTED_PROXIES: 'none',
    });
    const authorization = `Bearer ${admin}`;
    for (const host of ['backoffice.example.com', 'api.internal.example:8080', 'internal.example']) {
      const list = await get(own, '/acl/api/v1/users?page_size=1', { host, authorization });
      expect([host, list.status]).toEqual([host, 200]);
      expect(list.body.next).toMatch(/^https:\/\/backoffice\.example\.com\/acl\/api\/v1\/users\?/);
    }
    // The list replaces the defaults; and from an untrusted peer X-Forwarded-Host does not count.
    expect(await get(own, '/acl/api/v1/users/me', { host: 'localhost', authorization })).toEqual(
      refused('localhost'),
    );
    const forwarded = await get(own, '/acl/api/v1/users?page_size=1', {
      host: 'backoffice.example.com',
      'x-forwarded-host': 'evil.example',
      authorization,
    });
    expect(forwarded.status).toBe(200);
    expect(forwarded.body.next).toMatch(/^https:\/\/backoffice\.example\.com\//);
  });
});
