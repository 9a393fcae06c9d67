/**
 * Body limits, upstream timeouts and streaming through the gateway (docs/api/contract.md §2).
 * The gateway runs in-process against the fake upstream of ./support/gateway-fixture.
 */
import { createHash, randomBytes, randomUUID } from 'node:crypto';
import { once } from 'node:events';
import { request as httpRequest, type IncomingMessage } from 'node:http';
import { request } from 'undici';
import {
  agent,
  bearer,
  BIG_SIZE,
  boot,
  call,
  lastSeen,
  main,
  mint,
  paymentDown,
  releaseStepwise,
  token,
  UPLOAD_LIMIT,
  useGatewayFixture,
} from './support/gateway-fixture';

useGatewayFixture();

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

  it('streams a tus chunk past UPLOAD_LIMIT to the resumable uploads whole; elsewhere it is 413', async () => {
    const body = randomBytes(UPLOAD_LIMIT * 3);
    const headers = {
      ...bearer(token),
      'content-type': 'application/offset+octet-stream',
      'upload-offset': '0',
    };
    const res = await call(main.url, `/documents/api/v1/uploads/${randomUUID()}`, {
      method: 'PATCH',
      headers,
      body,
    });
    expect(res.status).toBe(200);
    expect(res.json<{ bytes: number; sha256: string }>()).toMatchObject({
      bytes: body.length,
      sha256: createHash('sha256').update(body).digest('hex'),
    });
    const elsewhere = await call(main.url, '/documents/api/v1/documents', { method: 'POST', headers, body });
    expect(elsewhere.status).toBe(413);
    expect(elsewhere.json<{ code: string }>().code).toBe('payload_too_large');
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
