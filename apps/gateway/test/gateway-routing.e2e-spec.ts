/**
 * Routing by the first path segment and the headers the gateway forwards (docs/api/contract.md §0).
 * The gateway runs in-process against the fake upstream of ./support/gateway-fixture.
 */
import { createHash } from 'node:crypto';
import { request as httpRequest, type IncomingMessage } from 'node:http';
import {
  bearer,
  call,
  lastSeen,
  main,
  token,
  upstreamPort,
  useGatewayFixture,
} from './support/gateway-fixture';

useGatewayFixture();

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
    // Sent as written: a WHATWG URL (fetch, undici on Node 24) would resolve the dots first.
    const res = await new Promise<IncomingMessage>((resolve, reject) => {
      httpRequest({
        host: '127.0.0.1',
        port: main.gateway.port,
        path: '/acl/.well-known/jwks.json/../../api/v1/users',
      })
        .once('response', resolve)
        .once('error', reject)
        .end();
    });
    const chunks: Buffer[] = [];
    for await (const chunk of res) chunks.push(chunk as Buffer);
    expect(res.statusCode).toBe(400);
    expect((JSON.parse(Buffer.concat(chunks).toString()) as { code: string }).code).toBe('invalid_path');
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
