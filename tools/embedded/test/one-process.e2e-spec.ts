import { spawn, type ChildProcess } from 'node:child_process';
import { randomUUID } from 'node:crypto';
import { readFileSync, rmSync } from 'node:fs';
import { createServer, type Server } from 'node:http';
import type { AddressInfo } from 'node:net';
import { join, resolve } from 'node:path';
import { APPS, envPrefix, type AppName } from '@media/contracts';
import { eventually } from '@media/testing';
import { cleanEnv, freePorts, makeWorkDir, stopLeftoverPostgres } from './support';

/**
 * Each app is itself inside the one process of the embedded default: a request to
 * each app logs that app's `app` and exports its span under that app's `service.name`, and the
 * start logs no `data source already registered` warning. Spans go to a test collector (a fake
 * OTLP/HTTP endpoint in this process) that keeps what it is sent.
 */
const ROOT = resolve(__dirname, '../../..');
const MAIN = join(ROOT, 'dist', 'tools', 'embedded', 'src', 'main.js');

interface Span {
  service: string;
  attributes: Record<string, unknown>;
}

let collector: Server;
const spans: Span[] = [];
let runner: ChildProcess;
let stdout = '';
let stderr = '';
let work: string;
let ports: Record<AppName, number>;

beforeAll(async () => {
  collector = createServer((req, res) => {
    let body = '';
    req.on('data', (chunk: Buffer) => (body += chunk.toString()));
    req.on('end', () => {
      try {
        const parsed = JSON.parse(body) as {
          resourceSpans: {
            resource: { attributes: { key: string; value: { stringValue?: string } }[] };
            scopeSpans: { spans: { attributes: { key: string; value: { stringValue?: string } }[] }[] }[];
          }[];
        };
        for (const resourceSpan of parsed.resourceSpans) {
          const service =
            resourceSpan.resource.attributes.find((a) => a.key === 'service.name')?.value.stringValue ?? '';
          for (const scope of resourceSpan.scopeSpans)
            for (const span of scope.spans)
              spans.push({
                service,
                attributes: Object.fromEntries(span.attributes.map((a) => [a.key, a.value.stringValue])),
              });
        }
      } catch {
        /* not JSON: ignored */
      }
      res.writeHead(200, { 'content-type': 'application/json' }).end('{}');
    });
  });
  await new Promise<void>((done) => collector.listen(0, '127.0.0.1', done));
  const otlp = `http://127.0.0.1:${(collector.address() as AddressInfo).port}`;

  work = makeWorkDir();
  ports = await freePorts();
  const env: Record<string, string> = {
    ...cleanEnv(),
    DATA_DIR: join(work, 'data'),
    LOG_LEVEL: 'info',
    GATEWAY_METRICS_PORT: '0',
    OTEL_EXPORTER_OTLP_ENDPOINT: otlp,
    OTEL_BSP_SCHEDULE_DELAY: '200',
  };
  for (const app of Object.keys(ports) as AppName[]) env[`${envPrefix(app)}_PORT`] = String(ports[app]);
  runner = spawn(process.execPath, [MAIN], { cwd: ROOT, env, stdio: ['ignore', 'pipe', 'pipe'] });
  runner.stdout?.on('data', (chunk: Buffer) => (stdout += chunk.toString()));
  runner.stderr?.on('data', (chunk: Buffer) => (stderr += chunk.toString()));
  const ready = await eventually(
    () =>
      fetch(`http://127.0.0.1:${ports.gateway}/health/ready`, { signal: AbortSignal.timeout(2_000) }).then(
        (res) => res.status,
        () => 0,
      ),
    (status) => status === 200 || runner.exitCode !== null,
    140_000,
  );
  if (ready !== 200) throw new Error(`not ready:\n${stderr}`);
}, 150_000);

afterAll(async () => {
  if (runner && runner.exitCode === null) {
    runner.kill('SIGINT');
    await eventually(
      async () => runner.exitCode,
      (code) => code !== null,
      40_000,
    );
  }
  stopLeftoverPostgres(join(work, 'data'));
  rmSync(work, { recursive: true, force: true });
  collector?.close();
}, 60_000);

function logLines(): Record<string, unknown>[] {
  return stdout
    .split('\n')
    .filter((line) => line.startsWith('{'))
    .map((line) => JSON.parse(line) as Record<string, unknown>);
}

it('logs each request under the app that handled it and exports its span under that app’s service.name', async () => {
  const admin = JSON.parse(readFileSync(join(work, 'data', 'secrets.json'), 'utf8')) as {
    adminEmail: string;
    adminPassword: string;
  };
  const base = `http://127.0.0.1:${ports.gateway}`;
  const login = await fetch(`${base}/acl/api/v1/auth/token`, {
    method: 'POST',
    headers: { 'content-type': 'application/json' },
    body: JSON.stringify({ email: admin.adminEmail, password: admin.adminPassword }),
  });
  const { access_token: token } = (await login.json()) as { access_token: string };
  const apps = (Object.keys(APPS) as AppName[]).filter((app) => app !== 'gateway');
  const ids = new Map<AppName, string>();
  for (const app of apps) {
    const id = randomUUID();
    ids.set(app, id);
    const res = await fetch(`${base}/${APPS[app].prefix}/openapi.json`, {
      headers: { authorization: `Bearer ${token}`, 'x-request-id': id },
    });
    await res.arrayBuffer();
    expect({ app, status: res.status }).toEqual({ app, status: 200 });
  }

  const logged = await eventually(
    async () =>
      apps.map((app) => {
        const lines = logLines().filter((line) => line.request_id === ids.get(app));
        return { app, apps: [...new Set(lines.map((line) => line.app))].sort() };
      }),
    (seen) => seen.every(({ app, apps: found }) => found.includes(app) && found.includes('gateway')),
    10_000,
  );
  // The gateway's access line and the app's own, nothing under another app's name.
  expect(logged).toEqual(apps.map((app) => ({ app, apps: [app, 'gateway'].sort() })));

  const traced = await eventually(
    async () =>
      apps.map((app) => ({
        app,
        services: [
          ...new Set(spans.filter((s) => s.attributes.request_id === ids.get(app)).map((s) => s.service)),
        ].sort(),
      })),
    (seen) => seen.every(({ app, services }) => services.includes(app) && services.includes('gateway')),
    15_000,
  );
  expect(traced).toEqual(apps.map((app) => ({ app, services: [app, 'gateway'].sort() })));
});

it('starts without a single "data source already registered" warning', () => {
  expect(stdout + stderr).not.toMatch(/already registered/);
});

it("binds the gateway and its metrics to 127.0.0.1 (HOST unset): the machine's other addresses are refused", async () => {
  const metricsPort = Number(/Metrics: +http:\/\/localhost:(\d+)\/metrics/.exec(stderr)?.[1]);
  expect(metricsPort).toBeGreaterThan(0);
  const status = (address: string, port: number, path: string) =>
    fetch(`http://${address}:${port}${path}`, { signal: AbortSignal.timeout(5_000) }).then(
      async (res) => (await res.arrayBuffer(), res.status),
      (error: Error) => (error.cause as NodeJS.ErrnoException | undefined)?.code,
    );
  expect(await status('127.0.0.1', ports.gateway, '/health/live')).toBe(200);
  expect(await status('127.0.0.1', metricsPort, '/metrics')).toBe(200);
  expect(await status('127.0.0.1', ports.gateway, '/metrics')).toBe(404);
  // 127.0.0.2 is this machine too, but not the address listened on.
  expect(await status('127.0.0.2', ports.gateway, '/health/live')).toBe('ECONNREFUSED');
  expect(await status('127.0.0.2', metricsPort, '/metrics')).toBe('ECONNREFUSED');
  expect(stderr).toContain('Listening on this machine only');
});
