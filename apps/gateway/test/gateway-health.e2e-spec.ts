/**
 * The gateway's own health and docs routes, and its graceful shutdown (docs/api/contract.md §6).
 * The gateway runs in-process against the fake upstream of ./support/gateway-fixture.
 */
import { Agent, request } from 'undici';
import { SERVICE_NAMES, type ServiceName } from '@media/contracts';
import { eventually } from '@media/testing';
import { GATEWAY_PATHS } from '../src/docs/gateway-paths';
import {
  bearer,
  boot,
  call,
  main,
  paymentDown,
  slowArrived,
  token,
  useGatewayFixture,
} from './support/gateway-fixture';

useGatewayFixture();

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
    // One fake path per app, and the gateway's own routes.
    expect(Object.keys(doc.paths)).toHaveLength(SERVICE_NAMES.length + Object.keys(GATEWAY_PATHS).length);
    expect(doc.paths['/content/api/v1/things']).toBeDefined();
    expect(doc.paths['/api/api/v1/things']).toEqual({
      get: {
        responses: {
          200: { $ref: '#/components/schemas/chat-notifications.Thing' },
          400: { $ref: '#/components/responses/HostNotAllowed' },
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
    await eventually(
      async () => slowArrived,
      (n) => n !== before,
      { intervalMs: 5, orThrow: 'the slow request at the upstream' },
    );
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
    await eventually(
      async () => slowArrived,
      (n) => n !== before,
      { intervalMs: 5, orThrow: 'the slow request at the upstream' },
    );
    const started = Date.now();
    await stopping.gateway.close();
    expect(Date.now() - started).toBeLessThan(1_500);
    expect(await inFlight).toBeInstanceOf(Error);
  });
});
