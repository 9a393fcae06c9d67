/**
 * The gateway's own defences: timeouts and connection caps, rate limits that bad
 * tokens and health probes cannot dodge, CORS from CORS_ORIGINS, security headers on its own
 * pages, TRUSTED_PROXIES, and Node's parser errors in the contract's shape (docs/api/contract.md §2).
 */
import { randomUUID } from 'node:crypto';
import { once } from 'node:events';
import { eventually, mintToken } from '@media/testing';
import { WebSocket } from 'ws';
import {
  bootGateway,
  startFakeUpstream,
  type BootedGateway,
  type FakeUpstream,
} from './support/fake-upstream';
import { expectContractError, head, RawConnection, trickle } from './support/raw-client';

let upstream: FakeUpstream;
const booted: BootedGateway[] = [];

beforeAll(async () => {
  upstream = await startFakeUpstream();
});

afterAll(async () => {
  await Promise.all(booted.map((gw) => gw.gateway.close()));
  await upstream.close();
});

async function gateway(extra: Record<string, string> = {}): Promise<BootedGateway> {
  const gw = await bootGateway(upstream, extra);
  booted.push(gw);
  return gw;
}

const sleep = (ms: number) => new Promise((resolve) => setTimeout(resolve, ms));

/** The head of a JSON POST of `length` bytes to the fake upstream's echo route (`query` tells it apart). */
const echoHead = (token: string, length: number, query = '') =>
  head('POST', `/content/api/v1/echo${query}`, {
    authorization: `Bearer ${token}`,
    'content-type': 'application/json',
    'content-length': length,
  });

async function openSocket(gw: BootedGateway, token: string): Promise<WebSocket> {
  const socket = new WebSocket(`ws://127.0.0.1:${gw.port}/api/v1/ws`, {
    headers: { authorization: `Bearer ${token}` },
  });
  await once(socket, 'open');
  return socket;
}

describe('timeouts', () => {
  it('cuts slowloris headers (a byte at a time) within HEADERS_TIMEOUT with a 408 in the contract shape', async () => {
    const gw = await gateway({ HEADERS_TIMEOUT: '1s' });
    const connection = await RawConnection.open(gw.port);
    const started = Date.now();
    const request = head('GET', '/content/api/v1/echo', { 'x-padding': 'a'.repeat(200) });
    for (const char of request) {
      if (connection.closed || Date.now() - started > 6_000) break;
      await connection.write(char);
      // The pace is what is tested: never idle, yet the headers take longer than HEADERS_TIMEOUT.
      await sleep(50);
    }
    const answer = await connection.read(6_000);
    expect(answer.status).toBe(408);
    expectContractError(answer, 'request_timeout');
    expect(Date.now() - started).toBeLessThan(3_500);
    connection.destroy();
  });

  it('closes a connection that never sends a byte within IDLE_TIMEOUT', async () => {
    const gw = await gateway({ IDLE_TIMEOUT: '1s', HEADERS_TIMEOUT: '20s' });
    const connection = await RawConnection.open(gw.port);
    const started = Date.now();
    expect(await connection.waitClosed(5_000)).toBe(true);
    expect(Date.now() - started).toBeGreaterThanOrEqual(900);
  });

  it('closes an idle keep-alive connection within IDLE_TIMEOUT, after serving on it', async () => {
    const gw = await gateway({ IDLE_TIMEOUT: '1s' });
    const connection = await RawConnection.open(gw.port);
    await connection.write(head('GET', '/health/live'));
    expect((await connection.read()).status).toBe(200);
    expect(await connection.waitClosed(4_000)).toBe(true);
  });

  it('answers a body trickled slower than MIN_BODY_RATE with 408 and frees the upstream', async () => {
    const gw = await gateway({ MIN_BODY_RATE: '1000', REQUEST_TIMEOUT: '0' });
    const token = mintToken(upstream.keys);
    const connection = await RawConnection.open(gw.port);
    const query = `?trickle=${randomUUID()}`;
    const started = Date.now();
    const result = await trickle(connection, echoHead(token, 100_000, query), '1', { timeoutMs: 15_000 });
    expect(result.status).toBe(408);
    expectContractError(result, 'request_timeout');
    expect(Date.now() - started).toBeLessThan(9_000);
    expect(result.headers.connection).toBe('close');
    connection.destroy();
    // The upstream had the request (the body streams through) and is no longer held by it.
    const url = `/content/api/v1/echo${query}`;
    expect(upstream.requests.has(url)).toBe(true);
    expect(
      await eventually(
        async () => upstream.requests.get(url),
        (state) => state === 'closed',
      ),
    ).toBe('closed');
  });

  it('holds a tus chunk (no body limit there) to MIN_BODY_RATE too: 408', async () => {
    const gw = await gateway({ MIN_BODY_RATE: '1000', REQUEST_TIMEOUT: '0' });
    const token = mintToken(upstream.keys);
    const connection = await RawConnection.open(gw.port);
    const chunkHead = head('PATCH', `/documents/api/v1/uploads/${randomUUID()}`, {
      authorization: `Bearer ${token}`,
      'content-type': 'application/offset+octet-stream',
      'content-length': 100_000_000,
    });
    const result = await trickle(connection, chunkHead, '1', { timeoutMs: 15_000 });
    expect(result.status).toBe(408);
    expectContractError(result, 'request_timeout');
    connection.destroy();
  });

  it('keeps a body that arrives faster than MIN_BODY_RATE (the other side of the boundary)', async () => {
    const gw = await gateway({ MIN_BODY_RATE: '1000' });
    const token = mintToken(upstream.keys);
    const connection = await RawConnection.open(gw.port);
    const total = 14_000;
    await connection.write(echoHead(token, total));
    // 2,000 bytes per second for 7 s: twice the minimum, over more than one 5 s window.
    for (let sent = 0; sent < total; sent += 200) {
      await connection.write(' '.repeat(200));
      await sleep(100);
    }
    const answer = await connection.read(5_000);
    expect(answer.status).toBe(200);
    expect(JSON.parse(answer.body)).toMatchObject({ bytes: total });
    connection.destroy();
  });

  it('answers a request that outlasts REQUEST_TIMEOUT with 408', async () => {
    const gw = await gateway({ MIN_BODY_RATE: '0', REQUEST_TIMEOUT: '1500ms', HEADERS_TIMEOUT: '1s' });
    const token = mintToken(upstream.keys);
    const connection = await RawConnection.open(gw.port);
    const started = Date.now();
    const result = await trickle(connection, echoHead(token, 1_000), ' ', { timeoutMs: 10_000 });
    expect(result.status).toBe(408);
    expectContractError(result, 'request_timeout');
    expect(Date.now() - started).toBeLessThan(4_000);
    connection.destroy();
  });

  it('exempts an upgraded websocket from the HTTP timeouts', async () => {
    const gw = await gateway({ IDLE_TIMEOUT: '1s', HEADERS_TIMEOUT: '1s', REQUEST_TIMEOUT: '1s' });
    const token = mintToken(upstream.keys);
    const socket = await openSocket(gw, token);
    // Witnesses opened after the socket, stalled before, in and after their headers: once the
    // gateway's timeouts have cut all three, those timeouts have passed for the socket too.
    const idle = await RawConnection.open(gw.port);
    const headers = await RawConnection.open(gw.port);
    await headers.write('GET /health/live HTTP/1.1\r\nHost: gateway.test\r\n');
    const body = await RawConnection.open(gw.port);
    await body.write(`${echoHead(token, 1_000)} `);
    for (const witness of [idle, headers, body]) expect(await witness.waitClosed(5_000)).toBe(true);
    expect(socket.readyState).toBe(WebSocket.OPEN);
    socket.send('still here');
    const [data] = (await once(socket, 'message')) as [Buffer];
    expect(data.toString()).toBe('echo:still here');
    socket.close();
    for (const witness of [idle, headers, body]) witness.destroy();
  });
});

describe('connection caps', () => {
  it('caps HTTP connections at MAX_CONNECTIONS with a 503, counting websockets apart (MAX_WEBSOCKETS)', async () => {
    const gw = await gateway({ MAX_CONNECTIONS: '2', MAX_WEBSOCKETS: '1' });
    const token = mintToken(upstream.keys);
    const socket = await openSocket(gw, token);
    // The tunnel does not use up an HTTP slot: two HTTP connections still fit.
    const first = await RawConnection.open(gw.port);
    const second = await RawConnection.open(gw.port);
    for (const connection of [first, second]) {
      await connection.write(head('GET', '/health/live'));
      expect((await connection.read()).status).toBe(200);
    }
    const third = await RawConnection.open(gw.port);
    const refused = await third.read();
    expect(refused.status).toBe(503);
    expectContractError(refused, 'upstream_unavailable');
    // A second websocket is over MAX_WEBSOCKETS (the handshake comes on a free HTTP slot).
    first.destroy();
    await eventually(
      async () => {
        const probe = await RawConnection.open(gw.port);
        await probe.write(head('GET', '/health/live'));
        const ok = (await probe.read().catch(() => ({ status: 0 }))).status === 200;
        probe.destroy();
        return ok;
      },
      (ok) => ok,
      { intervalMs: 20, orThrow: 'an HTTP slot is free again' },
    );
    const again = new WebSocket(`ws://127.0.0.1:${gw.port}/api/v1/ws`, {
      headers: { authorization: `Bearer ${token}` },
    });
    const [, response] = (await once(again, 'unexpected-response')) as [unknown, { statusCode: number }];
    expect(response.statusCode).toBe(503);
    socket.close();
    second.destroy();
    third.destroy();
  });
});

describe('rate limits that cannot be dodged', () => {
  it('counts requests with a bad token against the client’s limit', async () => {
    const gw = await gateway({ RATE_LIMIT_PER_MINUTE: '3' });
    const statuses: number[] = [];
    for (let i = 0; i < 4; i += 1) {
      const connection = await RawConnection.open(gw.port);
      await connection.write(head('GET', '/content/api/v1/echo', { authorization: 'Bearer not.a.token' }));
      const answer = await connection.read();
      statuses.push(answer.status);
      if (answer.status === 429) {
        expectContractError(answer, 'rate_limited');
        expect(Number(answer.headers['retry-after'])).toBeGreaterThanOrEqual(1);
      }
      connection.destroy();
    }
    expect(statuses).toEqual([401, 401, 401, 429]);
  });

  it('caches /health/ready for about a second: 30 parallel probes reach each app at most twice', async () => {
    const gw = await gateway({ HEALTH_RATE_LIMIT_PER_MINUTE: '1000' });
    const before = upstream.hits.get('/acl/health/ready') ?? 0;
    const answers = await Promise.all(
      Array.from({ length: 30 }, async () => (await fetch(`${gw.url}/health/ready`)).status),
    );
    expect(answers.every((status) => status === 200)).toBe(true);
    expect((upstream.hits.get('/acl/health/ready') ?? 0) - before).toBeLessThanOrEqual(2);
  });

  it('limits health probes per client: 60 a minute pass, the 61st (any /health/* or /<prefix>/health/*) is 429', async () => {
    const gw = await gateway({ HEALTH_RATE_LIMIT_PER_MINUTE: '60' });
    const paths = ['/health/ready', '/health/live', '/acl/health/ready', '/content/health/live'];
    const started = performance.now();
    const statuses = await Promise.all(
      Array.from({ length: 60 }, async (_, i) => {
        const res = await fetch(`${gw.url}${paths[i % paths.length]}`);
        await res.arrayBuffer();
        return res.status;
      }),
    );
    expect(statuses.filter((status) => status === 200)).toHaveLength(60);
    // The allowance refills at one a second: of one more probe of each kind, sent together, no
    // more can pass than the seconds since the first probe have earned back (at least one).
    const more = await Promise.all(paths.map((path) => fetch(`${gw.url}${path}`)));
    const earned = Math.max(1, Math.floor((performance.now() - started) / 1000));
    const refused = more.filter((res) => res.status === 429);
    expect(refused.length).toBeGreaterThanOrEqual(paths.length - earned);
    for (const res of refused) {
      expect(await res.json()).toEqual({ detail: expect.any(String), code: 'rate_limited' });
      expect(Number(res.headers.get('retry-after'))).toBeGreaterThanOrEqual(1);
    }
    // Other requests of the same client are not held back by its probes.
    expect((await fetch(`${gw.url}/docs`)).status).toBe(200);
  });

  it('refuses a health limit under 60 a minute at start', async () => {
    await expect(bootGateway(upstream, { HEALTH_RATE_LIMIT_PER_MINUTE: '59' })).rejects.toThrow(
      /HEALTH_RATE_LIMIT_PER_MINUTE/,
    );
  });
});

describe('CORS (CORS_ORIGINS, preflights answered by the gateway)', () => {
  const preflight = (origin: string) => ({
    method: 'OPTIONS',
    headers: {
      origin,
      'access-control-request-method': 'POST',
      'access-control-request-headers': 'authorization, content-type',
    },
  });

  it('allows no origin by default', async () => {
    const gw = await gateway();
    const res = await fetch(`${gw.url}/content/api/v1/echo`, preflight('https://app.example'));
    expect(res.status).toBe(403);
    expect(res.headers.get('access-control-allow-origin')).toBeNull();
  });

  it('answers a preflight from a listed origin itself, and adds the origin to real answers', async () => {
    const gw = await gateway({ CORS_ORIGINS: 'https://app.example, https://admin.example' });
    const before = upstream.hits.get('/content/api/v1/echo') ?? 0;
    const res = await fetch(`${gw.url}/content/api/v1/echo`, preflight('https://admin.example'));
    expect(res.status).toBe(204);
    expect(res.headers.get('access-control-allow-origin')).toBe('https://admin.example');
    expect(res.headers.get('access-control-allow-methods')).toContain('POST');
    expect(res.headers.get('access-control-allow-headers')).toBe('authorization, content-type');
    expect(upstream.hits.get('/content/api/v1/echo') ?? 0).toBe(before);

    const other = await fetch(`${gw.url}/content/api/v1/echo`, preflight('https://evil.example'));
    expect(other.status).toBe(403);
    expect(other.headers.get('access-control-allow-origin')).toBeNull();

    const real = await fetch(`${gw.url}/content/api/v1/echo`, {
      headers: { origin: 'https://app.example', authorization: `Bearer ${mintToken(upstream.keys)}` },
    });
    expect(real.status).toBe(200);
    expect(real.headers.get('access-control-allow-origin')).toBe('https://app.example');
    expect(real.headers.get('vary')).toContain('Origin');
  });

  it('lets a browser send Idempotency-Key and read Idempotent-Replayed (docs/api/contract.md §7.1)', async () => {
    const gw = await gateway({ CORS_ORIGINS: 'https://app.example' });
    const res = await fetch(`${gw.url}/content/api/v1/echo`, {
      method: 'OPTIONS',
      headers: { origin: 'https://app.example', 'access-control-request-method': 'POST' },
    });
    expect(res.status).toBe(204);
    expect(res.headers.get('access-control-allow-headers')).toContain('Idempotency-Key');
    const real = await fetch(`${gw.url}/content/api/v1/echo`, {
      headers: { origin: 'https://app.example', authorization: `Bearer ${mintToken(upstream.keys)}` },
    });
    expect(real.status).toBe(200);
    expect(real.headers.get('access-control-expose-headers')).toContain('Idempotent-Replayed');
  });

  it('refuses a CORS_ORIGINS entry that is not an origin', async () => {
    await expect(bootGateway(upstream, { CORS_ORIGINS: 'https://app.example/path' })).rejects.toThrow(
      /CORS_ORIGINS/,
    );
  });
});

describe('security headers on the gateway’s own pages', () => {
  it.each(['/docs', '/health/live', '/nowhere/x', '/openapi.json'])('sets them on %s', async (path) => {
    const gw = await gateway();
    const res = await fetch(`${gw.url}${path}`);
    await res.arrayBuffer();
    expect(res.headers.get('x-content-type-options')).toBe('nosniff');
    expect(res.headers.get('x-frame-options')).toBe('DENY');
    expect(res.headers.get('content-security-policy')).toContain("frame-ancestors 'none'");
    expect(res.headers.get('referrer-policy')).toBe('no-referrer');
  });

  it('lets the docs page run its own script only', async () => {
    const gw = await gateway();
    const csp = (await fetch(`${gw.url}/docs`)).headers.get('content-security-policy') ?? '';
    expect(csp).toMatch(/script-src 'self' 'sha256-[A-Za-z0-9+/=]+'/);
    expect(csp).not.toContain("'unsafe-eval'");
  });
});

describe('TRUSTED_PROXIES at the gateway', () => {
  async function echoedHeaders(gw: BootedGateway, extra: Record<string, string>) {
    const requestId = randomUUID();
    const res = await fetch(`${gw.url}/content/api/v1/echo`, {
      headers: { authorization: `Bearer ${mintToken(upstream.keys)}`, 'x-request-id': requestId, ...extra },
    });
    expect(res.status).toBe(200);
    return upstream.lastHeaders.get('/content/api/v1/echo') ?? {};
  }

  const claims = {
    'x-forwarded-for': '198.51.100.7',
    'x-forwarded-host': 'media.example.com',
    'x-forwarded-proto': 'https',
  };

  it('believes X-Forwarded-* from a listed proxy (loopback by default)', async () => {
    // The host a trusted proxy names is judged against ALLOWED_HOSTS like any other.
    const headers = await echoedHeaders(await gateway({ ALLOWED_HOSTS: 'media.example.com' }), claims);
    expect(headers['x-forwarded-host']).toBe('media.example.com');
    expect(headers['x-forwarded-proto']).toBe('https');
    expect(headers['x-forwarded-for']).toBe('198.51.100.7, 127.0.0.1');
  });

  it('ignores X-Forwarded-* from a peer outside TRUSTED_PROXIES, and rate-limits it by its own address', async () => {
    const gw = await gateway({ TRUSTED_PROXIES: '10.0.0.0/8', RATE_LIMIT_PER_MINUTE: '2' });
    const headers = await echoedHeaders(gw, claims);
    expect(headers['x-forwarded-host']).toBe(`127.0.0.1:${gw.port}`);
    expect(headers['x-forwarded-proto']).toBe('http');
    expect(headers['x-forwarded-for']).toBe('127.0.0.1');
    // A new X-Forwarded-For per request does not buy a new allowance.
    const statuses: number[] = [];
    for (let i = 0; i < 3; i += 1) {
      const res = await fetch(`${gw.url}/acl/api/v1/auth/token`, {
        method: 'POST',
        headers: { 'content-type': 'application/json', 'x-forwarded-for': `203.0.113.${i}` },
        body: '{}',
      });
      await res.arrayBuffer();
      statuses.push(res.status);
    }
    expect(statuses).toEqual([401, 401, 429]);
  });

  it('refuses a malformed TRUSTED_PROXIES at start', async () => {
    await expect(bootGateway(upstream, { TRUSTED_PROXIES: '10.0.0.0/40' })).rejects.toThrow(
      /TRUSTED_PROXIES/,
    );
  });
});

describe("Node's parser errors in the contract's shape (docs/api/contract.md §2)", () => {
  it('answers bad framing with 400 {detail, code}', async () => {
    const gw = await gateway();
    const connection = await RawConnection.open(gw.port);
    await connection.write(
      'POST /content/api/v1/echo HTTP/1.1\r\nHost: x\r\nContent-Length: 5\r\nContent-Length: 7\r\n\r\nhello',
    );
    const answer = await connection.read();
    expect(answer.status).toBe(400);
    expectContractError(answer, 'bad_request');
    expect(answer.headers['content-type']).toContain('application/json');
    connection.destroy();
  });

  it('answers garbage instead of a request line with 400 {detail, code}', async () => {
    const gw = await gateway();
    const connection = await RawConnection.open(gw.port);
    await connection.write('\u0001\u0002 nonsense\r\n\r\n');
    const answer = await connection.read();
    expect(answer.status).toBe(400);
    expectContractError(answer, 'bad_request');
    connection.destroy();
  });

  it('answers an oversized query with 431 {detail, code}, and a query just under the limit normally', async () => {
    const gw = await gateway();
    const big = await RawConnection.open(gw.port);
    await big.write(head('GET', `/content/api/v1/echo?q=${'a'.repeat(20_000)}`));
    const answer = await big.read();
    expect(answer.status).toBe(431);
    expectContractError(answer, 'request_header_fields_too_large');
    big.destroy();

    const fits = await RawConnection.open(gw.port);
    await fits.write(head('GET', `/content/api/v1/echo?q=${'a'.repeat(8_000)}`));
    expect((await fits.read()).status).toBe(401);
    fits.destroy();
  });
});
