/**
 * The gateway booted in-process against real HTTP upstreams started here (docs/api/contract.md §0, §1, §2,
 * §6). One fake upstream serves every prefix (and acl's JWKS, and a websocket echo), so each
 * gateway below points all its `<APP>_URL`s at it, except where a test needs an app down.
 */
import { createHash, randomUUID } from 'node:crypto';
import { once } from 'node:events';
import {
  createServer,
  request as httpRequest,
  type IncomingMessage,
  type Server,
  type ServerResponse,
} from 'node:http';
import type { AddressInfo } from 'node:net';
import { exportJWK, exportSPKI, generateKeyPair, SignJWT, type CryptoKey, type JWK } from 'jose';
import { Agent, request } from 'undici';
import { WebSocket, WebSocketServer } from 'ws';
import { SERVICE_NAMES, envPrefix, type ServiceName } from '@media/contracts';
import { startGateway, type RunningGateway } from '../src/gateway';

const ISSUER = 'media-backoffice-acl';
const AUDIENCE = 'media-backoffice';
const KID = 'test-key-1';
const UPLOAD_LIMIT = 1024 * 1024;

// ------------------------------------------------------------------ keys and tokens

let privateKey: CryptoKey;
let publicJwk: JWK;
let publicPem: string;
let strangerKey: CryptoKey;

interface TokenOptions {
  sub?: string;
  aud?: string;
  iss?: string;
  expiresIn?: number;
  /** Seconds from now of `iat` (default 0). */
  issuedIn?: number;
  kid?: string;
  key?: CryptoKey;
}

async function mint(options: TokenOptions = {}): Promise<string> {
  const now = Math.floor(Date.now() / 1000);
  return new SignJWT({
    email: 'tester@example.com',
    name: 'Test User',
    permissions: [],
    roles: [],
    groups: [],
  })
    .setProtectedHeader({ alg: 'RS256', kid: options.kid ?? KID })
    .setSubject(options.sub ?? randomUUID())
    .setIssuer(options.iss ?? ISSUER)
    .setAudience(options.aud ?? AUDIENCE)
    .setIssuedAt(now + (options.issuedIn ?? 0))
    .setExpirationTime(now + (options.expiresIn ?? 900))
    .setJti(randomUUID())
    .sign(options.key ?? privateKey);
}

const b64url = (value: object) => Buffer.from(JSON.stringify(value)).toString('base64url');

function claims(): object {
  const now = Math.floor(Date.now() / 1000);
  return { sub: randomUUID(), iss: ISSUER, aud: AUDIENCE, iat: now, exp: now + 900 };
}

/** `alg: none`: a token with no signature at all. */
function unsignedToken(): string {
  return `${b64url({ alg: 'none', typ: 'JWT', kid: KID })}.${b64url(claims())}.`;
}

/** The classic confusion attack: HS256 keyed with the (public) RSA key's PEM text. */
async function hs256WithPublicKey(): Promise<string> {
  return new SignJWT(claims() as Record<string, unknown>)
    .setProtectedHeader({ alg: 'HS256', kid: KID })
    .sign(new TextEncoder().encode(publicPem));
}

// ------------------------------------------------------------------ the fake upstream

interface Seen {
  method: string;
  url: string;
  headers: IncomingMessage['headers'];
  bytes: number;
  sha256: string;
  complete: boolean;
}

const seen: Seen[] = [];
let upstream: Server;
let upstreamPort: number;
let releaseStepwise: (() => void) | undefined;
let slowArrived = 0;
const BIG_SIZE = 32 * 1024 * 1024;

function json(
  res: ServerResponse,
  status: number,
  value: unknown,
  headers: Record<string, string | string[]> = {},
): void {
  const text = JSON.stringify(value);
  res.writeHead(status, {
    'content-type': 'application/json',
    'content-length': Buffer.byteLength(text),
    ...headers,
  });
  res.end(text);
}

function openApiOf(prefix: string): object {
  return {
    openapi: '3.0.0',
    info: { title: `${prefix} API`, version: 'v1' },
    paths: {
      [`/${prefix}/api/v1/things`]: { get: { responses: { 200: { $ref: '#/components/schemas/Thing' } } } },
    },
    components: {
      schemas: {
        Thing: { type: 'object', properties: { [`${prefix}_field`]: { type: 'string' } } },
        Shared: { type: 'string' },
      },
      securitySchemes: { bearer: { type: 'http', scheme: 'bearer' } },
    },
    tags: [{ name: prefix }],
  };
}

function recordAndEcho(req: IncomingMessage, res: ServerResponse, status = 200): void {
  const hash = createHash('sha256');
  let bytes = 0;
  const record: Seen = {
    method: req.method ?? '',
    url: req.url ?? '',
    headers: req.headers,
    bytes: 0,
    sha256: '',
    complete: false,
  };
  seen.push(record);
  req.on('data', (chunk: Buffer) => {
    bytes += chunk.length;
    record.bytes = bytes;
    hash.update(chunk);
  });
  req.on('end', () => {
    record.complete = true;
    record.sha256 = hash.digest('hex');
    json(
      res,
      status,
      { method: record.method, url: record.url, headers: record.headers, bytes, sha256: record.sha256 },
      {
        'set-cookie': ['a=1', 'b=2'],
        'x-upstream': 'fake',
      },
    );
  });
}

function handleUpstream(req: IncomingMessage, res: ServerResponse): void {
  const url = req.url ?? '/';
  const path = url.split('?')[0];
  const prefix = path.split('/')[1];
  if (path === '/acl/.well-known/jwks.json')
    return json(res, 200, { keys: [{ ...publicJwk, kid: KID, alg: 'RS256', use: 'sig' }] });
  if (path === `/${prefix}/health/ready`) return json(res, 200, { status: 'ok' });
  if (path === `/${prefix}/openapi.json`) return json(res, 200, openApiOf(prefix));
  if (path === '/content/slow') {
    slowArrived += 1;
    const ms = Number(new URLSearchParams(url.split('?')[1]).get('ms') ?? '1000');
    const timer = setTimeout(() => recordAndEcho(req, res), ms);
    res.once('close', () => clearTimeout(timer));
    return;
  }
  if (path === '/content/big') {
    // Written in 64 KiB pieces with backpressure, like a file download.
    res.writeHead(200, { 'content-type': 'application/octet-stream', 'content-length': BIG_SIZE });
    const piece = Buffer.alloc(64 * 1024, 7);
    let sent = 0;
    const pump = () => {
      while (sent < BIG_SIZE) {
        sent += piece.length;
        if (!res.write(piece)) return void res.once('drain', pump);
      }
      res.end();
    };
    return pump();
  }
  if (path === '/content/stepwise') {
    // The second half is only produced once the test has seen the first half through the gateway.
    res.writeHead(200, { 'content-type': 'text/plain' });
    res.write('first-half;');
    releaseStepwise = () => res.end('second-half');
    return;
  }
  recordAndEcho(req, res, req.method === 'POST' ? 201 : 200);
}

const upstreamSockets = new WebSocketServer({ noServer: true });
upstreamSockets.on('connection', (socket, req) => {
  socket.send(`hello ${req.headers['x-request-id'] ?? ''}`);
  socket.on('message', (data) => socket.send(`echo:${data.toString()}`));
});

// ------------------------------------------------------------------ gateways under test

const agent = new Agent({ keepAliveTimeout: 1_000 });

async function boot(extra: Record<string, string>): Promise<{ gateway: RunningGateway; url: string }> {
  const env: Record<string, string> = {
    GATEWAY_PORT: '0',
    LOG_LEVEL: 'silent',
    UPLOAD_LIMIT: String(UPLOAD_LIMIT),
  };
  for (const app of SERVICE_NAMES) env[`${envPrefix(app)}_URL`] = `http://127.0.0.1:${upstreamPort}`;
  const gateway = await startGateway({ ...env, ...extra });
  return { gateway, url: `http://127.0.0.1:${gateway.port}` };
}

async function deadPort(): Promise<number> {
  const server = createServer();
  server.listen(0, '127.0.0.1');
  await once(server, 'listening');
  const { port } = server.address() as AddressInfo;
  await new Promise((resolve) => server.close(resolve));
  return port;
}

interface Answer {
  status: number;
  headers: Record<string, string | string[] | undefined>;
  text: string;
  json: <T = Record<string, unknown>>() => T;
}

async function call(
  base: string,
  path: string,
  options: { method?: string; headers?: Record<string, string>; body?: string | Buffer } = {},
): Promise<Answer> {
  const res = await request(`${base}${path}`, {
    method: (options.method ?? 'GET') as 'GET',
    headers: options.headers,
    body: options.body,
    dispatcher: agent,
  });
  const text = await res.body.text();
  return { status: res.statusCode, headers: res.headers, text, json: <T>() => JSON.parse(text) as T };
}

const bearer = (token: string) => ({ authorization: `Bearer ${token}` });

let main: { gateway: RunningGateway; url: string };
let paymentDown: { gateway: RunningGateway; url: string };
let token: string;

beforeAll(async () => {
  const pair = await generateKeyPair('RS256', { extractable: true });
  privateKey = pair.privateKey;
  publicJwk = await exportJWK(pair.publicKey);
  publicPem = await exportSPKI(pair.publicKey);
  strangerKey = (await generateKeyPair('RS256')).privateKey;

  upstream = createServer(handleUpstream);
  upstream.on('upgrade', (req, socket, head) => {
    if (!req.url?.startsWith('/api/v1/ws'))
      return void socket.end('HTTP/1.1 404 Not Found\r\nContent-Length: 0\r\n\r\n');
    upstreamSockets.handleUpgrade(req, socket, head, (ws) => upstreamSockets.emit('connection', ws, req));
  });
  upstream.listen(0, '127.0.0.1');
  await once(upstream, 'listening');
  upstreamPort = (upstream.address() as AddressInfo).port;

  main = await boot({ UPSTREAM_TIMEOUT: '500ms', RATE_LIMIT_PER_MINUTE: '100000' });
  paymentDown = await boot({ PAYMENT_URL: `http://127.0.0.1:${await deadPort()}` });
  token = await mint();
});

afterAll(async () => {
  await main.gateway.close();
  await paymentDown.gateway.close();
  await agent.close();
  upstreamSockets.close();
  upstream.closeAllConnections();
  await new Promise((resolve) => upstream.close(resolve));
});

function lastSeen(requestId: string): Seen | undefined {
  return seen.find((s) => s.headers['x-request-id'] === requestId);
}

// ------------------------------------------------------------------ routing

describe('routing (docs/api/contract.md §0)', () => {
  it('forwards each first segment to its app with the path and query unchanged', async () => {
    const path = '/content/api/v1/lineup/a%2Fb?x=1&y=%20z&x=2';
    const res = await call(main.url, path, { headers: bearer(token) });
    expect(res.status).toBe(200);
    expect(res.json<{ url: string }>().url).toBe(path);
    expect(res.headers['x-upstream']).toBe('fake');
    expect(res.headers['set-cookie']).toEqual(['a=1', 'b=2']);
  });

  it('routes /api to chat-notifications and every other prefix to its app', async () => {
    const prefixes = [
      'content',
      'assignment',
      'inventory',
      'commercial',
      'payment',
      'acl',
      'documents',
      'api',
    ];
    for (const prefix of prefixes) {
      const res = await call(main.url, `/${prefix}/api/v1/x`, { headers: bearer(token) });
      expect([prefix, res.status]).toEqual([prefix, 200]);
      expect(res.json<{ url: string }>().url).toBe(`/${prefix}/api/v1/x`);
    }
  });

  it('answers an unknown first segment with 404 route_not_found, without a token', async () => {
    const res = await call(main.url, '/x/api/v1/things');
    expect(res.status).toBe(404);
    expect(res.json()).toEqual({ detail: 'No route for /x', code: 'route_not_found' });
    expect(res.headers['x-request-id']).toEqual(expect.any(String));
  });

  it('answers an unknown first segment with 404 route_not_found even with a bad token', async () => {
    const res = await call(main.url, '/nope', { headers: bearer('garbage') });
    expect(res.status).toBe(404);
    expect(res.json()).toEqual({ detail: 'No route for /nope', code: 'route_not_found' });
  });

  it('refuses dot segments instead of forwarding a path the upstream might resolve differently', async () => {
    const res = await call(main.url, '/acl/.well-known/jwks.json/../../api/v1/users');
    expect(res.status).toBe(400);
    expect(res.json<{ code: string }>().code).toBe('invalid_path');
  });

  it('streams a request body to the upstream unchanged', async () => {
    const body = Buffer.alloc(512 * 1024, 3);
    const res = await call(main.url, '/documents/api/v1/documents', {
      method: 'POST',
      headers: bearer(token),
      body,
    });
    expect(res.status).toBe(201);
    expect(res.json<{ bytes: number; sha256: string }>()).toMatchObject({
      bytes: body.length,
      sha256: createHash('sha256').update(body).digest('hex'),
    });
  });
});

// ------------------------------------------------------------------ headers

describe('forwarded headers and request ids', () => {
  it('adds X-Forwarded-Proto, -Host and -For and strips hop-by-hop headers', async () => {
    const res = await new Promise<IncomingMessage>((resolve, reject) => {
      const req = httpRequest({
        host: '127.0.0.1',
        port: main.gateway.port,
        path: '/content/api/v1/echo',
        headers: {
          ...bearer(token),
          connection: 'keep-alive, x-hop-secret',
          'x-hop-secret': 'not for the upstream',
          'keep-alive': 'timeout=5',
          te: 'trailers',
          'x-forwarded-for': '203.0.113.9',
          'x-custom': 'kept',
        },
      });
      req.once('response', resolve).once('error', reject).end();
    });
    const chunks: Buffer[] = [];
    for await (const chunk of res) chunks.push(chunk as Buffer);
    const echoed = JSON.parse(Buffer.concat(chunks).toString()) as { headers: Record<string, string> };
    expect(echoed.headers['x-forwarded-proto']).toBe('http');
    expect(echoed.headers['x-forwarded-host']).toBe(`127.0.0.1:${main.gateway.port}`);
    expect(echoed.headers['x-forwarded-for']).toBe('203.0.113.9, 127.0.0.1');
    expect(echoed.headers['x-custom']).toBe('kept');
    expect(echoed.headers['x-hop-secret']).toBeUndefined();
    expect(echoed.headers['keep-alive']).toBeUndefined();
    expect(echoed.headers.te).toBeUndefined();
    expect(echoed.headers.host).toBe(`127.0.0.1:${upstreamPort}`);
  });

  it('passes a sane X-Request-Id to the upstream and echoes it', async () => {
    const res = await call(main.url, '/content/api/v1/echo', {
      headers: { ...bearer(token), 'x-request-id': 'req-abc.123' },
    });
    expect(res.headers['x-request-id']).toBe('req-abc.123');
    expect(lastSeen('req-abc.123')).toBeDefined();
  });

  it('replaces an unsafe X-Request-Id with a generated one, the same upstream and back', async () => {
    const res = await call(main.url, '/content/api/v1/echo', {
      headers: { ...bearer(token), 'x-request-id': 'bad id <script>' },
    });
    const id = res.headers['x-request-id'] as string;
    expect(id).toMatch(/^[0-9a-f-]{36}$/);
    expect(res.json<{ headers: Record<string, string> }>().headers['x-request-id']).toBe(id);
  });

  it('puts X-Request-Id on errors the gateway makes itself', async () => {
    const res = await call(main.url, '/content/api/v1/echo', { headers: { 'x-request-id': 'err-1' } });
    expect(res.status).toBe(401);
    expect(res.headers['x-request-id']).toBe('err-1');
  });
});

// ------------------------------------------------------------------ authentication

describe('token pre-check (docs/api/contract.md §1)', () => {
  async function expect401(headers: Record<string, string>, code: string): Promise<void> {
    const requestId = randomUUID();
    const res = await call(main.url, '/content/api/v1/lineup', {
      headers: { ...headers, 'x-request-id': requestId },
    });
    expect(res.status).toBe(401);
    expect(res.headers['www-authenticate']).toBe('Bearer');
    expect(res.json()).toEqual({ detail: expect.any(String), code });
    expect(lastSeen(requestId)).toBeUndefined();
  }

  it('answers a CORS preflight itself without a token, and never forwards it', async () => {
    const requestId = randomUUID();
    const res = await call(main.url, '/content/api/v1/lineup', {
      method: 'OPTIONS',
      headers: {
        origin: 'https://app.example',
        'access-control-request-method': 'PUT',
        'x-request-id': requestId,
      },
    });
    expect(res.status).not.toBe(401);
    expect(lastSeen(requestId)).toBeUndefined();
  });

  it('still wants a token for an OPTIONS request that is not a preflight', async () => {
    const res = await call(main.url, '/content/api/v1/lineup', { method: 'OPTIONS' });
    expect(res.status).toBe(401);
  });

  it('refuses a request without a token with 401 not_authenticated before forwarding', async () => {
    await expect401({}, 'not_authenticated');
  });

  it('refuses an expired token with 401 token_expired', async () => {
    await expect401(bearer(await mint({ expiresIn: -60 })), 'token_expired');
  });

  it('refuses a token issued more than 30 s in the future, before forwarding', async () => {
    await expect401(bearer(await mint({ issuedIn: 60, expiresIn: 660 })), 'token_invalid');
  });

  it('refuses a token living longer than the 15-minute access lifetime, before forwarding', async () => {
    await expect401(bearer(await mint({ expiresIn: 901 })), 'token_invalid');
  });

  it('follows JWT_ACCESS_TTL and JWT_CLOCK_SKEW when set (as acl is)', async () => {
    const strict = await boot({ JWT_ACCESS_TTL: '5m', JWT_CLOCK_SKEW: '0' });
    try {
      const long = await call(strict.url, '/content/api/v1/lineup', {
        headers: bearer(await mint({ expiresIn: 600 })),
      });
      expect(long.status).toBe(401);
      expect(long.json()).toEqual({ detail: expect.any(String), code: 'token_invalid' });
      const ahead = await call(strict.url, '/content/api/v1/lineup', {
        headers: bearer(await mint({ issuedIn: 10, expiresIn: 250 })),
      });
      expect(ahead.status).toBe(401);
      const fine = await call(strict.url, '/content/api/v1/lineup', {
        headers: bearer(await mint({ expiresIn: 300 })),
      });
      expect(fine.status).toBe(200);
    } finally {
      await strict.gateway.close();
    }
  });

  it('accepts a token of exactly the 15-minute lifetime issued 10 s ahead (clock skew)', async () => {
    const res = await call(main.url, '/content/api/v1/lineup', {
      headers: bearer(await mint({ issuedIn: 10, expiresIn: 910 })),
    });
    expect(res.status).toBe(200);
  });

  it('refuses a token for another audience', async () => {
    await expect401(bearer(await mint({ aud: 'someone-else' })), 'token_invalid');
  });

  it('refuses a token from another issuer', async () => {
    await expect401(bearer(await mint({ iss: 'evil' })), 'token_invalid');
  });

  it('refuses an unsigned alg:none token', async () => {
    await expect401(bearer(unsignedToken()), 'token_invalid');
  });

  it('refuses an HS256 token keyed with the public key', async () => {
    await expect401(bearer(await hs256WithPublicKey()), 'token_invalid');
  });

  it('refuses a token signed with a key acl does not publish (unknown kid)', async () => {
    await expect401(bearer(await mint({ kid: 'unknown-kid', key: strangerKey })), 'token_invalid');
  });

  it('refuses a token with a known kid but a foreign signature', async () => {
    await expect401(bearer(await mint({ key: strangerKey })), 'token_invalid');
  });

  it('refuses a malformed token and a non-Bearer scheme', async () => {
    await expect401(bearer('not.a.jwt'), 'token_invalid');
    await expect401({ authorization: 'Basic dXNlcjpwYXNz' }, 'not_authenticated');
  });

  it.each([
    ['POST', '/acl/api/v1/auth/token'],
    ['POST', '/acl/api/v1/auth/refresh'],
    ['GET', '/acl/.well-known/jwks.json'],
    ['POST', '/acl/api/v1/auth/invitations/abc123/accept'],
    ['GET', '/content/health/ready'],
    ['GET', '/api/health/live'],
    ['GET', '/documents/openapi.json'],
  ])('lets %s %s through without a token', async (method, path) => {
    const res = await call(main.url, path, { method, body: method === 'POST' ? '{}' : undefined });
    expect(res.status).toBeLessThan(300);
  });

  it('still wants a token for the same paths with another method', async () => {
    expect((await call(main.url, '/acl/api/v1/auth/token')).status).toBe(401);
    expect((await call(main.url, '/acl/.well-known/jwks.json', { method: 'DELETE' })).status).toBe(401);
  });
});

// ------------------------------------------------------------------ limits

describe('limits', () => {
  it('answers 413 payload_too_large at once when Content-Length is over the limit, before the body is sent', async () => {
    const requestId = randomUUID();
    const req = httpRequest({
      host: '127.0.0.1',
      port: main.gateway.port,
      method: 'POST',
      path: '/documents/api/v1/documents',
      headers: { ...bearer(token), 'content-length': String(UPLOAD_LIMIT * 10), 'x-request-id': requestId },
    });
    req.on('error', () => undefined);
    req.flushHeaders();
    const [res] = (await once(req, 'response')) as [IncomingMessage];
    const chunks: Buffer[] = [];
    for await (const chunk of res) chunks.push(chunk as Buffer);
    req.destroy();
    expect(res.statusCode).toBe(413);
    expect(res.headers.connection).toBe('close');
    expect(res.headers['x-request-id']).toBe(requestId);
    expect(JSON.parse(Buffer.concat(chunks).toString())).toEqual({
      detail: expect.any(String),
      code: 'payload_too_large',
    });
    expect(lastSeen(requestId)).toBeUndefined();
  });

  it('lets a client that sends a too-large body anyway read the 413', async () => {
    const res = await call(main.url, '/documents/api/v1/documents', {
      method: 'POST',
      headers: bearer(token),
      body: Buffer.alloc(UPLOAD_LIMIT * 3, 1),
    });
    expect(res.status).toBe(413);
    expect(res.json<{ code: string }>().code).toBe('payload_too_large');
  });

  it('counts a chunked body and stops it at the limit with 413 and Connection: close', async () => {
    const requestId = randomUUID();
    const req = httpRequest({
      host: '127.0.0.1',
      port: main.gateway.port,
      method: 'POST',
      path: '/documents/api/v1/documents',
      headers: { ...bearer(token), 'x-request-id': requestId, 'content-type': 'application/octet-stream' },
    });
    req.on('error', () => undefined);
    let answered: IncomingMessage | undefined;
    const response = new Promise<IncomingMessage>((resolve) =>
      req.once('response', (res: IncomingMessage) => resolve((answered = res))),
    );
    const piece = Buffer.alloc(64 * 1024, 2);
    let written = 0;
    // Keep sending (with backpressure) until the gateway answers; it must answer before 8x the limit.
    while (!answered && written < UPLOAD_LIMIT * 8) {
      written += piece.length;
      if (!req.write(piece))
        await Promise.race([new Promise((resolve) => req.once('drain', resolve)), response]);
    }
    const res = await response;
    const chunks: Buffer[] = [];
    for await (const chunk of res) chunks.push(chunk as Buffer);
    req.destroy();
    expect(req.getHeader('content-length')).toBeUndefined();
    expect(res.statusCode).toBe(413);
    expect(res.headers.connection).toBe('close');
    expect(JSON.parse(Buffer.concat(chunks).toString())).toMatchObject({ code: 'payload_too_large' });
    const upstreamSaw = lastSeen(requestId);
    expect(upstreamSaw?.complete ?? false).toBe(false);
    expect(upstreamSaw?.bytes ?? 0).toBeLessThanOrEqual(UPLOAD_LIMIT);
  });

  it('answers 503 upstream_unavailable quickly when an app is down', async () => {
    const started = Date.now();
    const res = await call(paymentDown.url, '/payment/api/v1/collections', { headers: bearer(token) });
    expect(res.status).toBe(503);
    expect(res.json()).toEqual({ detail: expect.any(String), code: 'upstream_unavailable' });
    expect(Date.now() - started).toBeLessThan(1_000);
  });

  it('answers 504 upstream_timeout when an app takes longer than UPSTREAM_TIMEOUT', async () => {
    const started = Date.now();
    const res = await call(main.url, '/content/slow?ms=3000', { headers: bearer(token) });
    expect(res.status).toBe(504);
    expect(res.json()).toEqual({ detail: expect.any(String), code: 'upstream_timeout' });
    expect(Date.now() - started).toBeLessThan(2_500);
  });

  it('lets a slow upload through when it keeps making progress within UPSTREAM_TIMEOUT', async () => {
    const req = httpRequest({
      host: '127.0.0.1',
      port: main.gateway.port,
      method: 'POST',
      path: '/documents/api/v1/documents',
      headers: bearer(token),
    });
    const response = once(req, 'response') as Promise<[IncomingMessage]>;
    // Four pieces 300 ms apart: 1.2 s in all, more than the 500 ms timeout, but never idle that long.
    for (let i = 0; i < 4; i += 1) {
      req.write(Buffer.alloc(1024, i));
      await new Promise((resolve) => setTimeout(resolve, 300));
    }
    req.end();
    const [res] = await response;
    const chunks: Buffer[] = [];
    for await (const chunk of res) chunks.push(chunk as Buffer);
    expect(res.statusCode).toBe(201);
    expect(JSON.parse(Buffer.concat(chunks).toString())).toMatchObject({ bytes: 4096 });
  });

  it('answers 429 rate_limited with Retry-After once a client used its requests of the minute', async () => {
    const limited = await boot({ RATE_LIMIT_PER_MINUTE: '3' });
    try {
      const mine = await mint({ sub: 'rate-limited-user' });
      for (let i = 0; i < 3; i += 1)
        expect((await call(limited.url, '/content/x', { headers: bearer(mine) })).status).toBe(200);
      const refused = await call(limited.url, '/content/x', { headers: bearer(mine) });
      expect(refused.status).toBe(429);
      expect(refused.json()).toEqual({ detail: expect.any(String), code: 'rate_limited' });
      expect(Number(refused.headers['retry-after'])).toBeGreaterThanOrEqual(1);
      expect(Number(refused.headers['retry-after'])).toBeLessThanOrEqual(20);
      // The limit is per client: another user is not held back by this one.
      expect(
        (await call(limited.url, '/content/x', { headers: bearer(await mint({ sub: 'other-user' })) }))
          .status,
      ).toBe(200);
    } finally {
      await limited.gateway.close();
    }
  });
});

// ------------------------------------------------------------------ streaming

describe('streaming', () => {
  it('streams a large response body through intact', async () => {
    const res = await request(`${main.url}/content/big`, { headers: bearer(token), dispatcher: agent });
    const hash = createHash('sha256');
    let bytes = 0;
    for await (const chunk of res.body) {
      bytes += (chunk as Buffer).length;
      hash.update(chunk as Buffer);
    }
    expect(res.statusCode).toBe(200);
    expect(bytes).toBe(BIG_SIZE);
    expect(hash.digest('hex')).toBe(createHash('sha256').update(Buffer.alloc(BIG_SIZE, 7)).digest('hex'));
  });

  it('passes response bytes on as they arrive instead of buffering the body', async () => {
    const res = await request(`${main.url}/content/stepwise`, { headers: bearer(token), dispatcher: agent });
    const iterator = res.body[Symbol.asyncIterator]();
    const first = await iterator.next();
    expect(Buffer.from(first.value as Buffer).toString()).toBe('first-half;');
    releaseStepwise?.();
    let rest = '';
    for (let next = await iterator.next(); !next.done; next = await iterator.next())
      rest += Buffer.from(next.value as Buffer).toString();
    expect(rest).toBe('second-half');
  });
});

// ------------------------------------------------------------------ websockets

describe('websocket upgrades', () => {
  const wsUrl = (path: string) => `ws://127.0.0.1:${main.gateway.port}${path}`;

  it('lets an upgrade with a ?ticket= through to chat-notifications, which redeems it', async () => {
    const socket = new WebSocket(wsUrl(`/api/v1/ws?ticket=single-use-ticket`), {
      headers: { 'x-request-id': 'ws-1' },
    });
    const [greeting] = (await once(socket, 'message')) as [Buffer];
    expect(greeting.toString()).toBe('hello ws-1');
    socket.send('ping');
    const [echo] = (await once(socket, 'message')) as [Buffer];
    expect(echo.toString()).toBe('echo:ping');
    socket.close();
    await once(socket, 'close');
  });

  it('proxies an upgrade with a token in the Authorization header', async () => {
    const socket = new WebSocket(wsUrl('/api/v1/ws'), { headers: bearer(token) });
    await once(socket, 'open');
    socket.send('x'.repeat(100_000));
    const messages: string[] = [];
    socket.on('message', (data: Buffer) => messages.push(data.toString()));
    await new Promise<void>((resolve) => {
      const poll = setInterval(
        () => messages.some((m) => m.startsWith('echo:')) && (clearInterval(poll), resolve()),
        10,
      );
    });
    expect(messages.find((m) => m.startsWith('echo:'))).toHaveLength(5 + 100_000);
    socket.close();
    await once(socket, 'close');
  });

  async function refusedStatus(
    url: string,
    headers: Record<string, string> = {},
  ): Promise<{ status: number; body: string }> {
    const socket = new WebSocket(url, { headers });
    socket.on('error', () => undefined);
    const [, res] = (await once(socket, 'unexpected-response')) as [unknown, IncomingMessage];
    const chunks: Buffer[] = [];
    for await (const chunk of res) chunks.push(chunk as Buffer);
    socket.terminate();
    return { status: res.statusCode ?? 0, body: Buffer.concat(chunks).toString() };
  }

  it('refuses an upgrade without a token with an HTTP 401 on the socket', async () => {
    const refused = await refusedStatus(wsUrl('/api/v1/ws'));
    expect(refused.status).toBe(401);
    expect(JSON.parse(refused.body)).toMatchObject({ code: 'not_authenticated' });
  });

  it('refuses an upgrade with an expired token', async () => {
    const refused = await refusedStatus(wsUrl('/api/v1/ws'), bearer(await mint({ expiresIn: -10 })));
    expect(refused.status).toBe(401);
    expect(JSON.parse(refused.body)).toMatchObject({ code: 'token_expired' });
  });

  it('no longer accepts a token in the access_token query parameter (it would be logged)', async () => {
    const refused = await refusedStatus(wsUrl(`/api/v1/ws?access_token=${token}`));
    expect(refused.status).toBe(401);
    expect(JSON.parse(refused.body)).toMatchObject({ code: 'not_authenticated' });
  });

  it('lets a ?ticket= through to chat-notifications only, not to another app', async () => {
    const refused = await refusedStatus(wsUrl('/content/ws?ticket=single-use-ticket'));
    expect(refused.status).toBe(401);
    expect(JSON.parse(refused.body)).toMatchObject({ code: 'not_authenticated' });
  });

  it('refuses an upgrade to an unknown segment with 404', async () => {
    const refused = await refusedStatus(wsUrl('/nope/ws'), bearer(token));
    expect(refused.status).toBe(404);
  });
});

// ------------------------------------------------------------------ health, docs

describe('health and docs (docs/api/contract.md §6)', () => {
  it('answers /health/live 200', async () => {
    const res = await call(main.url, '/health/live');
    expect(res.status).toBe(200);
  });

  it('answers /health/ready 200 when every upstream is ready', async () => {
    const res = await call(main.url, '/health/ready');
    expect(res.status).toBe(200);
    const body = res.json<{
      status: string;
      upstreams: Record<ServiceName, { status: string; http_status: number }>;
    }>();
    expect(body.status).toBe('ok');
    expect(Object.keys(body.upstreams).sort()).toEqual([...SERVICE_NAMES].sort());
    for (const app of SERVICE_NAMES) expect(body.upstreams[app]).toEqual({ status: 'up', http_status: 200 });
  });

  it('answers /health/ready 503 naming the upstream that is down', async () => {
    const res = await call(paymentDown.url, '/health/ready');
    expect(res.status).toBe(503);
    const body = res.json<{
      status: string;
      upstreams: Record<string, { status: string; http_status: number | null }>;
    }>();
    expect(body.status).toBe('error');
    expect(body.upstreams.payment).toMatchObject({ status: 'down', http_status: null });
    expect(body.upstreams.content).toEqual({ status: 'up', http_status: 200 });
  });

  it("merges every app's OpenAPI document, renaming schemas that clash", async () => {
    const res = await call(main.url, '/openapi.json');
    expect(res.status).toBe(200);
    const doc = res.json<{
      paths: Record<string, unknown>;
      components: { schemas: Record<string, unknown> };
    }>();
    expect(Object.keys(doc.paths)).toHaveLength(SERVICE_NAMES.length);
    expect(doc.paths['/content/api/v1/things']).toBeDefined();
    expect(doc.paths['/api/api/v1/things']).toEqual({
      get: {
        responses: {
          200: { $ref: '#/components/schemas/chat-notifications.Thing' },
          429: { $ref: '#/components/responses/RateLimited' },
        },
      },
    });
    expect(doc.components.schemas.Shared).toEqual({ type: 'string' });
    expect(doc.components.schemas['payment.Thing']).toBeDefined();
  });

  it('leaves a down app out of the merged OpenAPI document', async () => {
    const doc = (await call(paymentDown.url, '/openapi.json')).json<{ paths: Record<string, unknown> }>();
    expect(doc.paths['/payment/api/v1/things']).toBeUndefined();
    expect(doc.paths['/content/api/v1/things']).toBeDefined();
  });

  it('serves Swagger UI at /docs', async () => {
    const page = await call(main.url, '/docs');
    expect(page.status).toBe(200);
    expect(page.text).toContain('/openapi.json');
    const script = await call(main.url, '/docs/swagger-ui-bundle.js');
    expect(script.status).toBe(200);
    expect(script.headers['content-type']).toContain('javascript');
  });
});

// ------------------------------------------------------------------ shutdown

describe('graceful shutdown', () => {
  it('finishes an in-flight request on close, and refuses new connections', async () => {
    const stopping = await boot({ UPSTREAM_TIMEOUT: '5s', SHUTDOWN_TIMEOUT: '5s' });
    const before = slowArrived;
    const inFlight = call(stopping.url, '/content/slow?ms=400', { headers: bearer(token) });
    while (slowArrived === before) await new Promise((resolve) => setTimeout(resolve, 5));
    const closed = stopping.gateway.close();
    await expect(request(`${stopping.url}/health/live`, { dispatcher: new Agent() })).rejects.toThrow();
    const res = await inFlight;
    expect(res.status).toBe(200);
    await closed;
  });

  it('cuts a request that outlives SHUTDOWN_TIMEOUT so close() stays bounded', async () => {
    const stopping = await boot({ UPSTREAM_TIMEOUT: '10s', SHUTDOWN_TIMEOUT: '200ms' });
    const before = slowArrived;
    const inFlight = call(stopping.url, '/content/slow?ms=3000', { headers: bearer(token) }).catch(
      (error: Error) => error,
    );
    while (slowArrived === before) await new Promise((resolve) => setTimeout(resolve, 5));
    const started = Date.now();
    await stopping.gateway.close();
    expect(Date.now() - started).toBeLessThan(1_500);
    expect(await inFlight).toBeInstanceOf(Error);
  });
});
