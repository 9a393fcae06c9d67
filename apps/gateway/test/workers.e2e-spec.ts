/**
 * GATEWAY_WORKERS: the built gateway run as a primary and two workers on one port. Connections
 * are dealt to the workers in turn, so a client that opens a new connection per request lands on
 * both; its per-client limits must still be counted once (the primary keeps the count, granting
 * each worker credits ahead while a client's allowance is ample), and the
 * metrics on GATEWAY_METRICS_PORT must count every worker's requests. A worker that dies is
 * replaced. (Draining under SIGTERM with workers is shutdown.e2e-spec.ts: the gateway it runs
 * takes the default, one worker per core.)
 */
import { once } from 'node:events';
import { readdirSync, readFileSync } from 'node:fs';
import { Pool, request } from 'undici';
import { SERVICE_NAMES, envPrefix } from '@media/contracts';
import { eventually, freePort, mintToken, spawnDist, waitReady, type DistProcess } from '@media/testing';
import { startFakeUpstream, type FakeUpstream } from './support/fake-upstream';

const PER_MINUTE = 60;

/** The ids of `pid`'s child processes (from /proc: the fourth field of each stat is the parent). */
function childrenOf(pid: number): number[] {
  const children: number[] = [];
  for (const entry of readdirSync('/proc')) {
    if (!/^\d+$/.test(entry)) continue;
    try {
      const stat = readFileSync(`/proc/${entry}/stat`, 'utf8');
      // `pid (comm) state ppid ...`; comm may hold spaces, so read after its closing parenthesis.
      const ppid = Number(stat.slice(stat.lastIndexOf(')') + 2).split(' ')[1]);
      if (ppid === pid) children.push(Number(entry));
    } catch {
      // gone meanwhile
    }
  }
  return children;
}

/** One request on a connection of its own (so requests spread over the workers); its status. */
async function statusOf(url: string, headers: Record<string, string> = {}): Promise<number> {
  const res = await request(url, { headers, reset: true });
  await res.body.dump();
  return res.statusCode;
}

/** The sum of a counter's samples whose labels contain every `labels` pair. */
function counted(text: string, name: string, labels: Record<string, string>): number {
  let sum = 0;
  for (const line of text.split('\n')) {
    if (!line.startsWith(`${name}{`)) continue;
    if (!Object.entries(labels).every(([key, value]) => line.includes(`${key}="${value}"`))) continue;
    sum += Number(line.slice(line.lastIndexOf(' ') + 1));
  }
  return sum;
}

describe('the gateway with GATEWAY_WORKERS=2', () => {
  let upstream: FakeUpstream;
  let gateway: DistProcess;
  let url: string;
  let metricsUrl: string;

  beforeAll(async () => {
    upstream = await startFakeUpstream();
    const port = await freePort();
    const metricsPort = await freePort();
    const env: Record<string, string> = {
      GATEWAY_PORT: String(port),
      GATEWAY_METRICS_PORT: String(metricsPort),
      GATEWAY_WORKERS: '2',
      RATE_LIMIT_PER_MINUTE: String(PER_MINUTE),
      HEALTH_RATE_LIMIT_PER_MINUTE: String(PER_MINUTE),
      LOG_LEVEL: 'warn',
    };
    for (const name of SERVICE_NAMES) env[`${envPrefix(name)}_URL`] = `http://127.0.0.1:${upstream.port}`;
    gateway = spawnDist('gateway', env);
    url = `http://127.0.0.1:${port}`;
    metricsUrl = `http://127.0.0.1:${metricsPort}/metrics`;
    await waitReady(metricsUrl, gateway, 30_000);
    await eventually(
      async () => (await statusOf(`${url}/content/api/v1/warm`, { authorization: 'Bearer x' })) === 401,
      (ok) => ok,
      { timeoutMs: 30_000, orThrow: `gateway up (${gateway.output()})` },
    );
    expect(childrenOf(gateway.child.pid ?? 0)).toHaveLength(2);
  }, 60_000);

  afterAll(async () => {
    if (gateway?.child.exitCode === null) {
      gateway.child.kill('SIGTERM');
      await once(gateway.child, 'exit');
    }
    await upstream?.close();
  });

  it('counts a client once across the workers: RATE_LIMIT_PER_MINUTE requests pass, then 429', async () => {
    const headers = { authorization: `Bearer ${mintToken(upstream.keys)}` };
    const statuses: number[] = [];
    const started = Date.now();
    for (let i = 0; i < PER_MINUTE + 20; i++)
      statuses.push(await statusOf(`${url}/content/api/v1/things`, headers));
    // The allowance is a burst of PER_MINUTE, then one more each 60/PER_MINUTE seconds: counted
    // per worker, all 80 would pass (each worker saw about 40).
    const refilled = Math.ceil(((Date.now() - started) / 60_000) * PER_MINUTE);
    const passed = statuses.filter((status) => status === 200).length;
    expect(passed).toBeGreaterThanOrEqual(PER_MINUTE);
    expect(passed).toBeLessThanOrEqual(PER_MINUTE + refilled);
    expect(passed).toBeLessThan(PER_MINUTE + 20);
    expect(statuses.filter((status) => status !== 200).every((status) => status === 429)).toBe(true);
  }, 60_000);

  it('lets exactly RATE_LIMIT_PER_MINUTE of a concurrent burst through, over connections on both workers', async () => {
    // Ten keep-alive connections, dealt to both workers, all sending at once: each worker spends
    // credits the primary granted it and asks for more while the other does the same.
    const pool = new Pool(url, { connections: 10 });
    const headers = { authorization: `Bearer ${mintToken(upstream.keys)}` };
    const started = Date.now();
    try {
      const statuses = await Promise.all(
        Array.from({ length: 2 * PER_MINUTE }, async () => {
          const res = await pool.request({ path: '/content/api/v1/burst', method: 'GET', headers });
          await res.body.dump();
          return res.statusCode;
        }),
      );
      const refilled = Math.ceil(((Date.now() - started) / 60_000) * PER_MINUTE);
      const passed = statuses.filter((status) => status === 200).length;
      expect(passed).toBeGreaterThanOrEqual(PER_MINUTE);
      expect(passed).toBeLessThanOrEqual(PER_MINUTE + refilled);
      expect(statuses.filter((status) => status !== 200).every((status) => status === 429)).toBe(true);
    } finally {
      await pool.close();
    }
  }, 60_000);

  it('counts health probes of one address once across the workers', async () => {
    const statuses: number[] = [];
    const started = Date.now();
    for (let i = 0; i < PER_MINUTE + 10; i++) statuses.push(await statusOf(`${url}/health/live`));
    // At most the limit passes, and what refilled meanwhile (one a second: a loaded machine takes
    // seconds for these); the rest is 429.
    const refilled = Math.ceil(((Date.now() - started) / 60_000) * PER_MINUTE);
    expect(statuses.filter((status) => status === 200).length).toBeLessThanOrEqual(PER_MINUTE + refilled);
    expect(statuses.filter((status) => status === 429).length).toBeGreaterThanOrEqual(10 - refilled);
    expect(statuses.every((status) => status === 200 || status === 429)).toBe(true);
  }, 60_000);

  it('serves the metrics of every worker, summed, on GATEWAY_METRICS_PORT', async () => {
    const before = counted(await (await fetch(metricsUrl)).text(), 'http_requests_total', {
      route: '/assignment/*',
    });
    const headers = { authorization: `Bearer ${mintToken(upstream.keys)}` };
    for (let i = 0; i < 30; i++) expect(await statusOf(`${url}/assignment/api/v1/things`, headers)).toBe(200);
    const text = await (await fetch(metricsUrl)).text();
    expect(counted(text, 'http_requests_total', { route: '/assignment/*', status: '200' }) - before).toBe(30);
    expect(text).toContain('app="gateway"');
  }, 60_000);

  it('replaces a worker that dies', async () => {
    const [first] = childrenOf(gateway.child.pid ?? 0);
    process.kill(first, 'SIGKILL');
    const workers = await eventually(
      async () => childrenOf(gateway.child.pid ?? 0),
      (pids) => pids.length === 2 && !pids.includes(first),
      { timeoutMs: 20_000, orThrow: 'a new worker' },
    );
    expect(workers).toHaveLength(2);
    const headers = { authorization: `Bearer ${mintToken(upstream.keys)}` };
    await eventually(
      async () => {
        const statuses = [];
        for (let i = 0; i < 4; i++) statuses.push(await statusOf(`${url}/content/api/v1/after`, headers));
        return statuses;
      },
      (statuses) => statuses.every((status) => status === 200),
      { timeoutMs: 20_000, orThrow: 'answers after the replacement' },
    );
  }, 60_000);
});
