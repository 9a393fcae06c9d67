/**
 * The gateway's `/health/ready` does not flap (docs/api/contract.md §6): a probe that times out
 * (an app slow under CPU load) is not a down app. The gateway runs in-process against a fake
 * upstream whose readiness answer can be held back past the gateway's probe timeout.
 */
import { once } from 'node:events';
import { createServer, type ServerResponse } from 'node:http';
import type { AddressInfo } from 'node:net';
import { SERVICE_NAMES, envPrefix } from '@media/contracts';
import { eventually } from '@media/testing';
import { startGateway, type RunningGateway } from '../src/start';
import { DOWN_AFTER_FAILURES } from '../src/health/readiness';

interface Report {
  status: number;
  body: { status: string; upstreams: Record<string, Record<string, unknown>> };
}

/** A fake upstream: every app's readiness answers 200 at once, content's only when not held. */
function startSlowFakeUpstream() {
  let holding = false;
  const held: ServerResponse[] = [];
  const answer = (res: ServerResponse) => {
    if (res.writableEnded || res.destroyed) return;
    res.writeHead(200, { 'content-type': 'application/json' });
    res.end('{"status":"ok"}');
  };
  const server = createServer((req, res) => {
    req.resume();
    if (holding && req.url === '/content/health/ready') held.push(res);
    else answer(res);
  });
  server.listen(0, '127.0.0.1');
  return {
    server,
    hold: () => (holding = true),
    release: () => {
      holding = false;
      for (const res of held.splice(0)) answer(res);
    },
  };
}

describe("the gateway's readiness with a fake upstream that is slow to answer its probe", () => {
  const upstream = startSlowFakeUpstream();
  let gateway: RunningGateway;
  let url: string;

  beforeAll(async () => {
    if (!upstream.server.listening) await once(upstream.server, 'listening');
    const origin = `http://127.0.0.1:${(upstream.server.address() as AddressInfo).port}`;
    const env: Record<string, string> = { GATEWAY_PORT: '0', GATEWAY_METRICS_PORT: '0', LOG_LEVEL: 'silent' };
    for (const app of SERVICE_NAMES) env[`${envPrefix(app)}_URL`] = origin;
    gateway = await startGateway(env);
    url = `http://127.0.0.1:${gateway.port}`;
  });

  afterAll(async () => {
    upstream.release();
    await gateway.close();
    upstream.server.closeAllConnections();
    upstream.server.close();
  });

  async function ready(): Promise<Report> {
    const res = await fetch(`${url}/health/ready`);
    return { status: res.status, body: (await res.json()) as Report['body'] };
  }

  it('stays 200 through failed probes, reports the app down after 3 in a row, and up at the first success', async () => {
    const first = await eventually(ready, (report) => report.status === 200, 10_000);
    expect(first.body.upstreams.content).toEqual({ status: 'up', http_status: 200 });

    upstream.hold();
    // Every answer until content is reported down, one per probe round (each ends in a timeout).
    const seen: Report[] = [];
    const down = await eventually(
      async () => {
        const report = await ready();
        const last = seen.at(-1);
        if (report.body.upstreams.content.failures !== last?.body.upstreams.content.failures)
          seen.push(report);
        return report;
      },
      (report) => report.body.upstreams.content.status === 'down',
      60_000,
    );
    expect(DOWN_AFTER_FAILURES).toBe(3);
    // The rounds before the held ones were answered at once, the rest timed out.
    const failing = seen.filter((report) => report.body.upstreams.content.failures !== undefined);
    expect(failing.map((report) => [report.status, report.body.upstreams.content])).toEqual([
      [200, { status: 'up', http_status: null, error: 'timed out', failures: 1 }],
      [200, { status: 'up', http_status: null, error: 'timed out', failures: 2 }],
      [503, { status: 'down', http_status: null, error: 'timed out', failures: 3 }],
    ]);
    expect(down.status).toBe(503);
    expect(down.body.status).toBe('error');
    expect(down.body.upstreams.acl).toEqual({ status: 'up', http_status: 200 });

    upstream.release();
    const back = await eventually(ready, (report) => report.status === 200, 30_000);
    expect(back.body).toEqual({
      status: 'ok',
      upstreams: Object.fromEntries(SERVICE_NAMES.map((app) => [app, { status: 'up', http_status: 200 }])),
    });
  }, 90_000);
});
