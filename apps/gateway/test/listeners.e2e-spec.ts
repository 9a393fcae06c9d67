/**
 * The gateway's two listeners (docs/api/contract.md §2 "What is not public"): the public one and
 * the metrics one (GATEWAY_METRICS_PORT), bound alike: every interface when HOST is unset (the
 * images), only HOST's address when it is set (`npm start` sets 127.0.0.1). 127.0.0.2 is another
 * address of this machine's loopback: a listener on every interface answers it, one bound to
 * 127.0.0.1 does not.
 */
import { SERVICE_NAMES, envPrefix } from '@media/contracts';
import { startGateway, type RunningGateway } from '../src/start';

const gateways: RunningGateway[] = [];

afterAll(async () => {
  await Promise.all(gateways.map((gateway) => gateway.close()));
});

async function boot(extra: Record<string, string>): Promise<RunningGateway> {
  const env: Record<string, string> = { GATEWAY_PORT: '0', GATEWAY_METRICS_PORT: '0', LOG_LEVEL: 'silent' };
  // No upstream is asked in these tests: the discard port.
  for (const app of SERVICE_NAMES) env[`${envPrefix(app)}_URL`] = 'http://127.0.0.1:9';
  const gateway = await startGateway({ ...env, ...extra });
  gateways.push(gateway);
  return gateway;
}

/** The status of a GET, or the connection error's code. */
async function status(address: string, port: number, path: string): Promise<number | string> {
  try {
    const res = await fetch(`http://${address}:${port}${path}`, { signal: AbortSignal.timeout(5_000) });
    await res.arrayBuffer();
    return res.status;
  } catch (error) {
    return ((error as Error).cause as NodeJS.ErrnoException | undefined)?.code ?? String(error);
  }
}

it('serves /metrics on GATEWAY_METRICS_PORT only: the public port answers 404', async () => {
  const gateway = await boot({});
  expect(gateway.metricsPort).not.toBe(gateway.port);
  expect(await status('127.0.0.1', gateway.metricsPort, '/metrics')).toBe(200);
  expect(await status('127.0.0.1', gateway.port, '/metrics')).toBe(404);
});

it('binds both listeners to every interface when HOST is unset', async () => {
  const gateway = await boot({});
  expect(await status('127.0.0.2', gateway.port, '/health/live')).toBe(200);
  expect(await status('127.0.0.2', gateway.metricsPort, '/metrics')).toBe(200);
});

it("binds both listeners to HOST's address only when it is set", async () => {
  const gateway = await boot({ HOST: '127.0.0.1' });
  expect(await status('127.0.0.1', gateway.port, '/health/live')).toBe(200);
  expect(await status('127.0.0.1', gateway.metricsPort, '/metrics')).toBe(200);
  expect(await status('127.0.0.2', gateway.port, '/health/live')).toBe('ECONNREFUSED');
  expect(await status('127.0.0.2', gateway.metricsPort, '/metrics')).toBe('ECONNREFUSED');
});

it('refuses to start when GATEWAY_METRICS_PORT is taken, naming the problem', async () => {
  const first = await boot({});
  await expect(boot({ GATEWAY_METRICS_PORT: String(first.metricsPort) })).rejects.toThrow(/EADDRINUSE/);
});
