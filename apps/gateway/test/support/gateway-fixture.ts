/**
 * What the gateway's in-process specs share (docs/api/contract.md §0, §1, §2, §6): one fake
 * upstream serving every prefix (and acl's JWKS, and a websocket echo), tokens minted here, and
 * two gateways pointing all their `<APP>_URL`s at it (`paymentDown`: payment's points nowhere).
 * Each spec file calls `useGatewayFixture()` and gets its own.
 */
import { createHash, randomUUID } from 'node:crypto';
import { once } from 'node:events';
import { createServer, type IncomingMessage, type Server, type ServerResponse } from 'node:http';
import type { AddressInfo } from 'node:net';
import { exportJWK, exportSPKI, generateKeyPair, SignJWT, type CryptoKey, type JWK } from 'jose';
import { Agent, request } from 'undici';
import { WebSocketServer } from 'ws';
import { SERVICE_NAMES, envPrefix } from '@media/contracts';
import { startGateway, type RunningGateway } from '../../src/start';

export const ISSUER = 'media-backoffice-acl';
export const AUDIENCE = 'media-backoffice';
export const KID = 'test-key-1';
export const UPLOAD_LIMIT = 1024 * 1024;

// ------------------------------------------------------------------ keys and tokens

export let privateKey: CryptoKey;
export let publicJwk: JWK;
export let publicPem: string;
export let strangerKey: CryptoKey;

export interface TokenOptions {
  sub?: string;
  aud?: string;
  iss?: string;
  expiresIn?: number;
  /** Seconds from now of `iat` (default 0). */
  issuedIn?: number;
  kid?: string;
  key?: CryptoKey;
}

export async function mint(options: TokenOptions = {}): Promise<string> {
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

export const b64url = (value: object) => Buffer.from(JSON.stringify(value)).toString('base64url');

export function claims(): object {
  const now = Math.floor(Date.now() / 1000);
  return { sub: randomUUID(), iss: ISSUER, aud: AUDIENCE, iat: now, exp: now + 900 };
}

/** `alg: none`: a token with no signature at all. */
export function unsignedToken(): string {
  return `${b64url({ alg: 'none', typ: 'JWT', kid: KID })}.${b64url(claims())}.`;
}

/** The classic confusion attack: HS256 keyed with the (public) RSA key's PEM text. */
export async function hs256WithPublicKey(): Promise<string> {
  return new SignJWT(claims() as Record<string, unknown>)
    .setProtectedHeader({ alg: 'HS256', kid: KID })
    .sign(new TextEncoder().encode(publicPem));
}

// ------------------------------------------------------------------ the fake upstream

export interface Seen {
  method: string;
  url: string;
  headers: IncomingMessage['headers'];
  bytes: number;
  sha256: string;
  complete: boolean;
}

export const seen: Seen[] = [];
export let upstream: Server;
export let upstreamPort: number;
export let releaseStepwise: (() => void) | undefined;
export let slowArrived = 0;
export const BIG_SIZE = 32 * 1024 * 1024;

export function json(
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

export function openApiOf(prefix: string): object {
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

export function recordAndEcho(req: IncomingMessage, res: ServerResponse, status = 200): void {
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

export function handleUpstream(req: IncomingMessage, res: ServerResponse): void {
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

export const upstreamSockets = new WebSocketServer({ noServer: true });
upstreamSockets.on('connection', (socket, req) => {
  socket.send(`hello ${req.headers['x-request-id'] ?? ''}`);
  socket.on('message', (data) => socket.send(`echo:${data.toString()}`));
});

// ------------------------------------------------------------------ gateways under test

export const agent = new Agent({ keepAliveTimeout: 1_000 });

export async function boot(extra: Record<string, string>): Promise<{ gateway: RunningGateway; url: string }> {
  const env: Record<string, string> = {
    GATEWAY_PORT: '0',
    GATEWAY_METRICS_PORT: '0',
    LOG_LEVEL: 'silent',
    UPLOAD_LIMIT: String(UPLOAD_LIMIT),
  };
  for (const app of SERVICE_NAMES) env[`${envPrefix(app)}_URL`] = `http://127.0.0.1:${upstreamPort}`;
  const gateway = await startGateway({ ...env, ...extra });
  return { gateway, url: `http://127.0.0.1:${gateway.port}` };
}

export async function deadPort(): Promise<number> {
  const server = createServer();
  server.listen(0, '127.0.0.1');
  await once(server, 'listening');
  const { port } = server.address() as AddressInfo;
  await new Promise((resolve) => server.close(resolve));
  return port;
}

export interface Answer {
  status: number;
  headers: Record<string, string | string[] | undefined>;
  text: string;
  json: <T = Record<string, unknown>>() => T;
}

export async function call(
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

export const bearer = (token: string) => ({ authorization: `Bearer ${token}` });

export let main: { gateway: RunningGateway; url: string };
export let paymentDown: { gateway: RunningGateway; url: string };
export let token: string;

/** Boots the fake upstream and the two gateways for the spec file that calls it. */
export function useGatewayFixture(): void {
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
}

export function lastSeen(requestId: string): Seen | undefined {
  return seen.find((s) => s.headers['x-request-id'] === requestId);
}

// ------------------------------------------------------------------ routing
