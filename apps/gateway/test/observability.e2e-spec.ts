/**
 * Observability: every app and the gateway serve Prometheus metrics, counted per route
 * template; the gateway never routes an app's `/metrics`; with OTEL_EXPORTER_OTLP_ENDPOINT set,
 * one trace follows a request from the gateway into the app, its SQL and its NATS hops, every
 * span carrying the request id.
 */
import { randomUUID } from 'node:crypto';
import { once } from 'node:events';
import { gunzipSync } from 'node:zlib';
import { createServer, type Server } from 'node:http';
import type { AddressInfo } from 'node:net';
import { connect } from '@nats-io/transport-node';
import { AclSubjects } from '@media/contracts';
import { startGateway } from '../src/start';
import {
  call,
  eventually,
  stack,
  startPrivateStack,
  testEnv,
  type PrivateStack,
  type StackInfo,
} from '@media/testing';

let system: StackInfo;
let adminToken: string;

async function login(info: StackInfo): Promise<string> {
  const res = await call(info.gatewayUrl, '/acl/api/v1/auth/token', { json: info.admin });
  if (res.status !== 200) throw new Error(`login failed: ${res.status} ${res.text}`);
  return res.body.access_token as string;
}

/** The value of one sample of a metric whose labels include all of `labels`. */
function sample(text: string, name: string, labels: Record<string, string>): number | undefined {
  for (const line of text.split('\n')) {
    if (!line.startsWith(`${name}{`) && !line.startsWith(`${name} `)) continue;
    if (Object.entries(labels).every(([k, v]) => line.includes(`${k}="${v}"`))) {
      return Number(line.slice(line.lastIndexOf(' ') + 1));
    }
  }
  return undefined;
}

beforeAll(async () => {
  system = stack();
  adminToken = await login(system);
});

describe('GET /<prefix>/metrics', () => {
  it('counts a request under its route template, not its raw path', async () => {
    const metricsUrl = `${system.urls.acl}/acl/metrics`;
    const route = '/acl/api/v1/users/:id';
    const before =
      sample((await call(metricsUrl, '')).text, 'http_requests_total', { route, status: '404' }) ?? 0;
    const missing = await call(system.gatewayUrl, `/acl/api/v1/users/${randomUUID()}`, { token: adminToken });
    expect(missing.status).toBe(404);

    const scrape = await call(metricsUrl, '');
    expect(scrape.status).toBe(200);
    expect(scrape.headers.get('content-type')).toContain('text/plain');
    expect(
      sample(scrape.text, 'http_requests_total', { app: 'acl', method: 'GET', route, status: '404' }),
    ).toBe(before + 1);
    expect(scrape.text).not.toContain(missing.headers.get('x-request-id') ?? 'no-id');
    expect(scrape.text).not.toMatch(/route="\/acl\/api\/v1\/users\/[0-9a-f]{8}-/);
    expect(
      sample(scrape.text, 'http_request_duration_seconds_count', { route, status_class: '4xx' }),
    ).toBeGreaterThanOrEqual(1);
  });

  it('reports the outbox, the database pool, the event loop and memory', async () => {
    const text = (await call(`${system.urls.acl}/acl/metrics`, '')).text;
    expect(sample(text, 'outbox_backlog', {})).toBeGreaterThanOrEqual(0);
    expect(sample(text, 'outbox_oldest_age_seconds', {})).toBeGreaterThanOrEqual(0);
    expect(sample(text, 'db_pool_connections', { state: 'in_use' })).toBeGreaterThanOrEqual(0);
    expect(sample(text, 'db_pool_waiting', {})).toBeGreaterThanOrEqual(0);
    expect(sample(text, 'nodejs_eventloop_lag_seconds', {})).toBeGreaterThanOrEqual(0);
    expect(sample(text, 'process_resident_memory_bytes', {})).toBeGreaterThan(0);
  });

  it('times NATS requests per subject on the responder side', async () => {
    const nats = await connect({ servers: testEnv.natsUrl });
    try {
      await nats.request(
        AclSubjects.usersGetMany,
        JSON.stringify({
          id: randomUUID(),
          pattern: AclSubjects.usersGetMany,
          data: { data: { ids: [] }, meta: {} },
        }),
        {
          timeout: 2000,
        },
      );
    } finally {
      await nats.close();
    }
    const text = (await call(`${system.urls.acl}/acl/metrics`, '')).text;
    expect(
      sample(text, 'nats_server_request_duration_seconds_count', {
        subject: AclSubjects.usersGetMany,
        outcome: 'ok',
      }),
    ).toBeGreaterThanOrEqual(1);
  });

  it('is not routed by the gateway, which serves its own /metrics per upstream on GATEWAY_METRICS_PORT', async () => {
    const routed = await call(system.gatewayUrl, '/acl/metrics', { token: adminToken });
    expect(routed.status).toBe(404);
    expect(routed.body).toEqual({ detail: expect.any(String), code: 'not_found' });
    // Never on the public port, with or without a token (docs/api/contract.md §2 "What is not public").
    for (const token of [undefined, adminToken]) {
      const publicPort = await call(system.gatewayUrl, '/metrics', { token });
      expect(publicPort.status).toBe(404);
      expect(publicPort.body).toEqual({ detail: 'No route for /metrics', code: 'route_not_found' });
    }

    const own = await call(`http://127.0.0.1:${system.env.GATEWAY_METRICS_PORT}`, '/metrics');
    expect(own.status).toBe(200);
    expect(
      sample(own.text, 'http_requests_total', { app: 'gateway', route: '/acl/*' }),
    ).toBeGreaterThanOrEqual(1);
  });
});

describe('METRICS_TOKEN', () => {
  it("guards the gateway's own /metrics with a bearer when set", async () => {
    const token = 'scrape-token-0123456789abcdef';
    const gateway = await startGateway({
      GATEWAY_PORT: '0',
      GATEWAY_METRICS_PORT: '0',
      METRICS_TOKEN: token,
      LOG_LEVEL: 'silent',
    });
    const base = `http://127.0.0.1:${gateway.metricsPort}`;
    try {
      // The metrics listener answers /metrics only.
      expect((await call(base, '/health/live')).status).toBe(404);
      const anonymous = await call(base, '/metrics');
      expect(anonymous.status).toBe(401);
      expect(anonymous.body).toEqual({ detail: expect.any(String), code: 'not_authenticated' });
      expect((await call(base, '/metrics', { token: 'wrong-token-0123456789abcdef' })).status).toBe(401);
      const scraped = await call(base, '/metrics', { token });
      expect(scraped.status).toBe(200);
      expect(scraped.text).toContain('process_resident_memory_bytes');
    } finally {
      await gateway.close();
    }
  });
});

// ------------------------------------------------------------------ tracing

interface ReceivedSpan {
  traceId: string;
  spanId: string;
  parentSpanId?: string;
  name: string;
  service: string;
  attributes: Record<string, unknown>;
}

/** An in-process OTLP/HTTP (JSON) receiver, standing in for a collector. */
function otlpReceiver(): { server: Server; spans: ReceivedSpan[] } {
  const spans: ReceivedSpan[] = [];
  const server = createServer((req, res) => {
    const chunks: Buffer[] = [];
    req.on('data', (chunk: Buffer) => chunks.push(chunk));
    req.on('end', () => {
      type Attr = { key: string; value: Record<string, unknown> };
      const flat = (attrs: Attr[] = []) =>
        Object.fromEntries(attrs.map((a) => [a.key, Object.values(a.value)[0]]));
      const raw = Buffer.concat(chunks);
      if (req.url !== '/v1/traces') {
        res.writeHead(404).end();
        return;
      }
      const text = (req.headers['content-encoding'] === 'gzip' ? gunzipSync(raw) : raw).toString('utf8');
      const body = JSON.parse(text) as {
        resourceSpans: {
          resource: { attributes: Attr[] };
          scopeSpans: { spans: (Omit<ReceivedSpan, 'attributes' | 'service'> & { attributes: Attr[] })[] }[];
        }[];
      };
      for (const resource of body.resourceSpans ?? []) {
        const service = String(flat(resource.resource.attributes)['service.name']);
        for (const scope of resource.scopeSpans ?? [])
          for (const span of scope.spans ?? [])
            spans.push({ ...span, service, attributes: flat(span.attributes) });
      }
      res.writeHead(200, { 'content-type': 'application/json' });
      res.end('{}');
    });
  });
  return { server, spans };
}

describe('OpenTelemetry traces', () => {
  const receiver = otlpReceiver();
  let traced: PrivateStack;

  beforeAll(async () => {
    receiver.server.listen(0, '127.0.0.1');
    await once(receiver.server, 'listening');
    const { port } = receiver.server.address() as AddressInfo;
    traced = await startPrivateStack(['acl'], {
      OTEL_EXPORTER_OTLP_ENDPOINT: `http://127.0.0.1:${port}`,
      OTEL_BSP_SCHEDULE_DELAY: '100',
    });
  }, 60_000);

  afterAll(async () => {
    await traced?.stop();
    receiver.server.close();
  });

  async function spansOf(
    traceId: string,
    until: (spans: ReceivedSpan[]) => boolean,
  ): Promise<ReceivedSpan[]> {
    return eventually(async () => receiver.spans.filter((s) => s.traceId === traceId), until, 10_000);
  }

  it('follows a request from the gateway into the app and its SQL, with the request id on every span', async () => {
    const token = await login(traced.info);
    const traceId = randomUUID().replace(/-/g, '');
    const requestId = `trace-test-${randomUUID()}`;
    const res = await call(traced.info.gatewayUrl, '/acl/api/v1/users/me', {
      token,
      headers: { traceparent: `00-${traceId}-${'1'.repeat(16)}-01`, 'x-request-id': requestId },
    });
    expect(res.status).toBe(200);

    const spans = await spansOf(
      traceId,
      (found) =>
        found.some((s) => s.service === 'gateway') &&
        found.some((s) => s.service === 'acl' && s.name === 'GET /acl/api/v1/users/me') &&
        found.some((s) => s.service === 'acl' && s.attributes['db.system.name'] === 'postgresql'),
    );
    const gateway = spans.find((s) => s.service === 'gateway' && s.name === 'GET /acl/*');
    const app = spans.find((s) => s.service === 'acl' && s.name === 'GET /acl/api/v1/users/me');
    const sql = spans.filter((s) => s.service === 'acl' && s.attributes['db.system.name'] === 'postgresql');
    expect(spans.map((s) => `${s.service}: ${s.name}`)).toContain('gateway: GET /acl/*');
    expect(app?.parentSpanId).toBe(gateway?.spanId);
    expect(sql.length).toBeGreaterThan(0);
    for (const span of [gateway, app, ...sql]) expect(span?.attributes.request_id).toBe(requestId);
  });

  it('continues a trace across a NATS request to a responder', async () => {
    // The global stack's acl and the traced one share the subject's queue group, so ask a few
    // times: each request has its own trace, and the traced acl answers some of them.
    const parent = 'a'.repeat(16);
    const asked: string[] = [];
    const nats = await connect({ servers: testEnv.natsUrl });
    try {
      for (let i = 0; i < 12; i++) {
        const traceId = randomUUID().replace(/-/g, '');
        asked.push(traceId);
        const meta = { request_id: `nats-trace-${i}`, traceparent: `00-${traceId}-${parent}-01` };
        await nats.request(
          AclSubjects.usersGetMany,
          JSON.stringify({
            id: randomUUID(),
            pattern: AclSubjects.usersGetMany,
            data: { data: { ids: [randomUUID()] }, meta },
          }),
          // A bound: 2 s ran out in a CI run at load 20.
          { timeout: 10_000 },
        );
      }
    } finally {
      await nats.close();
    }
    const handled = () =>
      receiver.spans.filter((s) => asked.includes(s.traceId) && s.name.startsWith('nats handle'));
    await eventually(
      async () => handled(),
      (spans) => spans.length > 0,
      10_000,
    );
    expect(handled().length).toBeGreaterThan(0);
    for (const span of handled()) {
      expect(span.name).toBe(`nats handle ${AclSubjects.usersGetMany}`);
      expect(span.parentSpanId).toBe(parent);
      expect(span.attributes.request_id).toBe(`nats-trace-${asked.indexOf(span.traceId)}`);
    }
  });
});
