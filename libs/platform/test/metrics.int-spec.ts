/**
 * The platform's metrics on the fixture app: a request counted under its route
 * template with its NATS hop timed per subject, and METRICS_ENABLED=false turning both off.
 */
import { call, mintToken } from '@media/testing';
import { bootFixture, type BootedFixture } from './fixture/boot';

function sample(text: string, name: string, labels: Record<string, string>): number | undefined {
  const line = text
    .split('\n')
    .find(
      (l) => l.startsWith(`${name}{`) && Object.entries(labels).every(([k, v]) => l.includes(`${k}="${v}"`)),
    );
  return line === undefined ? undefined : Number(line.slice(line.lastIndexOf(' ') + 1));
}

describe('metrics on (default)', () => {
  let fixture: BootedFixture;
  beforeAll(async () => {
    fixture = await bootFixture();
  });
  afterAll(() => fixture?.stop());

  it('counts requests per route template and NATS requests per subject, client and responder side', async () => {
    const token = mintToken(fixture.keys, {});
    expect((await call(fixture.base, '/api/v1/echo/first', { token })).status).toBe(200);
    expect((await call(fixture.base, '/api/v1/echo/second', { token })).status).toBe(200);
    const text = (await call(fixture.base, '/metrics')).text;
    const route = '/fixture/api/v1/echo/:word';
    expect(sample(text, 'http_requests_total', { app: 'fixture-platform', route, status: '200' })).toBe(2);
    expect(
      sample(text, 'nats_client_request_duration_seconds_count', { subject: 'fixture.echo', outcome: 'ok' }),
    ).toBe(2);
    expect(
      sample(text, 'nats_server_request_duration_seconds_count', { subject: 'fixture.echo', outcome: 'ok' }),
    ).toBe(2);
  });
});

describe('METRICS_ENABLED=false', () => {
  let fixture: BootedFixture;
  beforeAll(async () => {
    fixture = await bootFixture({ METRICS_ENABLED: 'false' });
  });
  afterAll(() => fixture?.stop());

  it('serves no /metrics', async () => {
    const res = await call(fixture.base, '/metrics');
    expect(res.status).toBe(404);
  });
});
