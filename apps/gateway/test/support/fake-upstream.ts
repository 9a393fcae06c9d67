/**
 * A fake upstream that behaves like a platform app where it matters to the gateway's edge tests:
 * it answers 413 and 415 early (before the body is read) with `Connection: close` and then closes
 * the socket, as Express does, serves a JWKS for test tokens, and counts health probes.
 */
import { once } from 'node:events';
import { createServer, type IncomingMessage, type Server, type ServerResponse } from 'node:http';
import type { AddressInfo } from 'node:net';
import { WebSocketServer } from 'ws';
import { SERVICE_NAMES, envPrefix } from '@media/contracts';
import { lingerOnClose } from '@media/core';
import { generateTestKeys, publicJwk, type TestKeys } from '@media/testing';
import { startGateway, type RunningGateway } from '../../src/start';

export const BODY_LIMIT = 1024 * 1024;
export const UPLOAD_LIMIT = 4 * 1024 * 1024;

export interface FakeUpstream {
  server: Server;
  port: number;
  keys: TestKeys;
  /** Hits per path (health probes, echo...). */
  hits: Map<string, number>;
  /** Headers of the last request per path. */
  lastHeaders: Map<string, IncomingMessage['headers']>;
  /** Each request by its URL (query included): `open` until its response or its connection closes. */
  requests: Map<string, 'open' | 'closed'>;
  close(): Promise<void>;
}

function json(res: ServerResponse, status: number, value: unknown, headers: Record<string, string> = {}) {
  const text = JSON.stringify(value);
  res.writeHead(status, {
    'content-type': 'application/json',
    'content-length': String(Buffer.byteLength(text)),
    ...headers,
  });
  res.end(text);
}

function mediaType(req: IncomingMessage): string {
  return (req.headers['content-type'] ?? '').split(';')[0].trim().toLowerCase();
}

export async function startFakeUpstream(): Promise<FakeUpstream> {
  const keys = generateTestKeys();
  const jwk = publicJwk(keys);
  const hits = new Map<string, number>();
  const lastHeaders = new Map<string, IncomingMessage['headers']>();
  const requests = new Map<string, 'open' | 'closed'>();

  const server = createServer((req, res) => {
    const path = (req.url ?? '/').split('?')[0];
    hits.set(path, (hits.get(path) ?? 0) + 1);
    lastHeaders.set(path, req.headers);
    const url = req.url ?? '/';
    requests.set(url, 'open');
    res.once('close', () => requests.set(url, 'closed'));
    if (path === '/acl/.well-known/jwks.json') return json(res, 200, { keys: [jwk] });
    if (/^\/[^/]+\/health\/(ready|live)$/.test(path)) return json(res, 200, { status: 'ok' });
    if (path === '/acl/api/v1/auth/token' || path === '/content/api/v1/echo') {
      const type = mediaType(req);
      // Like the platform: a multipart body where none is declared is 415, answered unread.
      if (type === 'multipart/form-data')
        return json(
          res,
          415,
          { detail: 'Unsupported.', code: 'unsupported_media_type' },
          { connection: 'close' },
        );
      const declared = Number(req.headers['content-length'] ?? NaN);
      if (declared > BODY_LIMIT)
        return json(res, 413, { detail: 'Too large.', code: 'payload_too_large' }, { connection: 'close' });
      let seen = 0;
      const chunks: Buffer[] = [];
      const onData = (chunk: Buffer) => {
        seen += chunk.length;
        if (seen > BODY_LIMIT) {
          req.off('data', onData);
          req.pause();
          json(res, 413, { detail: 'Too large.', code: 'payload_too_large' }, { connection: 'close' });
          return;
        }
        chunks.push(chunk);
      };
      req.on('data', onData);
      req.on('end', () => {
        if (res.headersSent) return;
        json(res, path.startsWith('/acl') ? 401 : 200, {
          detail: 'echo',
          code: 'invalid_credentials',
          bytes: seen,
        });
      });
      return;
    }
    if (path === '/content/slow') {
      const timer = setTimeout(
        () => json(res, 200, { ok: true }),
        Number(new URL(req.url ?? '/', 'http://x').searchParams.get('ms') ?? 500),
      );
      res.once('close', () => clearTimeout(timer));
      req.resume();
      return;
    }
    req.resume();
    req.on('end', () => json(res, 200, { path }));
  });
  // As every app does (platform bootstrap): an early answer's connection is closed only after
  // the rest of the body was read within a bound.
  lingerOnClose(server, { bytes: 64 * 1024 * 1024, ms: 2_000 });
  const sockets = new WebSocketServer({ noServer: true });
  sockets.on('connection', (socket) =>
    socket.on('message', (data) => socket.send(`echo:${data.toString()}`)),
  );
  server.on('upgrade', (req, socket, head) =>
    sockets.handleUpgrade(req, socket, head, (ws) => sockets.emit('connection', ws, req)),
  );
  server.listen(0, '127.0.0.1');
  await once(server, 'listening');
  const port = (server.address() as AddressInfo).port;
  return {
    server,
    port,
    keys,
    hits,
    lastHeaders,
    requests,
    close: async () => {
      for (const client of sockets.clients) client.terminate();
      sockets.close();
      server.closeAllConnections();
      await new Promise((resolve) => server.close(resolve));
    },
  };
}

export interface BootedGateway {
  gateway: RunningGateway;
  port: number;
  url: string;
}

/** A gateway in-process with every upstream pointed at the fake one. */
export async function bootGateway(
  upstream: FakeUpstream,
  extra: Record<string, string> = {},
): Promise<BootedGateway> {
  const env: Record<string, string> = {
    GATEWAY_PORT: '0',
    GATEWAY_METRICS_PORT: '0',
    LOG_LEVEL: 'silent',
    BODY_LIMIT: String(BODY_LIMIT),
    UPLOAD_LIMIT: String(UPLOAD_LIMIT),
    RATE_LIMIT_PER_MINUTE: '0',
  };
  for (const app of SERVICE_NAMES) env[`${envPrefix(app)}_URL`] = `http://127.0.0.1:${upstream.port}`;
  const gateway = await startGateway({ ...env, ...extra });
  return { gateway, port: gateway.port, url: `http://127.0.0.1:${gateway.port}` };
}
