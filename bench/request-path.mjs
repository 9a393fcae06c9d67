#!/usr/bin/env node
/**
 * The request path against the framework's floor, three figures of docs/benchmarks.md:
 *
 * 1. acl alone: `GET /acl/api/v1/users/me` (JWT check, one query, the envelope) against
 *    `GET /acl/health/live` (Express and Nest, nothing else), req/s with autocannon,
 *    CONNECTIONS connections, ROUNDS interleaved rounds of DURATION seconds; the ratio of medians.
 * 2. The gateway as its own process in front of content: a story categories page of 20 through
 *    the gateway against straight to content (ratio of req/s under load; the p50 the gateway
 *    adds, from SEQUENTIAL requests one at a time).
 * 3. NATS: `acl.users.get-many` with 100 ids, NATS_REQUESTS sequential requests from this process
 *    with Nest's NATS client (the apps' client, their envelope) and with a bare
 *    `@nats-io/transport-node` client (plain JSON), beside a bare echo responder (the broker's
 *    floor, no Nest, no SQL).
 * Also each process's resident memory after the load.
 *
 *   npx nx run-many -t build && node bench/request-path.mjs
 *
 * acl, content and the gateway run from dist on databases of their own (bench/lib/assignment-stack.mjs),
 * logging at `info` as in production. Env: NATS_URL, CONNECTIONS (16), DURATION (5), ROUNDS (3),
 * NATS_REQUESTS (1000), SEQUENTIAL (1000), BUILD_DIST (the apps of another build's dist, e.g. the
 * previous build's, to compare; default this checkout's). Writes bench/results/request-path.json.
 */
import { readFileSync } from 'node:fs';
import { loadavg } from 'node:os';
import { connect } from '@nats-io/transport-node';
import { Logger } from '@nestjs/common';
import { ClientProxyFactory, Transport } from '@nestjs/microservices';
import { firstValueFrom } from 'rxjs';
import { percentiles, runAutocannon } from './lib/app-server.mjs';
import { startAppStack } from './lib/assignment-stack.mjs';
import { assert, log, machine, withClient, writeResult } from './lib/seed-users.mjs';

const NATS_URL = process.env.NATS_URL ?? 'nats://127.0.0.1:4222';
const CONNECTIONS = Number(process.env.CONNECTIONS ?? 16);
const DURATION = Number(process.env.DURATION ?? 5);
const ROUNDS = Number(process.env.ROUNDS ?? 3);
const NATS_REQUESTS = Number(process.env.NATS_REQUESTS ?? 1000);
/** Sequential requests for the latency the gateway adds (autocannon's p50 under load is in whole ms and mostly queueing). */
const SEQUENTIAL = Number(process.env.SEQUENTIAL ?? 1000);
const USERS = 100;

const median = (xs) => [...xs].sort((a, b) => a - b)[Math.floor((xs.length - 1) / 2)];
const round2 = (x) => Number(x.toFixed(2));

async function json(url, init) {
  const res = await fetch(url, init);
  const body = await res.json();
  return { status: res.status, body };
}

async function adminToken(stack) {
  const { status, body } = await json(`${stack.urls.acl}/acl/api/v1/auth/token`, {
    method: 'POST',
    headers: { 'content-type': 'application/json' },
    body: JSON.stringify(stack.admin),
  });
  assert(status === 200, `login: ${status} ${JSON.stringify(body)}`);
  return body.access_token;
}

/** USERS users (for get-many) and 100 story categories (for the page of 20). */
async function seed(stack, token) {
  const headers = { 'content-type': 'application/json', authorization: `Bearer ${token}` };
  const ids = [];
  for (let i = 0; i < USERS; i++) {
    const { status, body } = await json(`${stack.urls.acl}/acl/api/v1/users`, {
      method: 'POST',
      headers,
      body: JSON.stringify({
        email: `path-${i}@example.com`,
        password: 'bench-password-1234',
        first_name: 'Path',
        last_name: String(i),
        roles: ['EDITOR'],
      }),
    });
    assert(status === 201, `user: ${status} ${JSON.stringify(body)}`);
    ids.push(body.data?.id ?? body.id);
  }
  for (let i = 0; i < 100; i++) {
    const { status, body } = await json(`${stack.urls.content}/content/api/v1/story-categories`, {
      method: 'POST',
      headers,
      body: JSON.stringify({ name: `Category ${String(i).padStart(3, '0')}` }),
    });
    assert(status === 201, `category: ${status} ${JSON.stringify(body)}`);
  }
  return ids;
}

/** Medians over interleaved autocannon rounds of each case. */
async function throughput(cases) {
  const runs = Object.fromEntries(Object.keys(cases).map((name) => [name, []]));
  for (let r = 0; r < ROUNDS; r++) {
    for (const [name, options] of Object.entries(cases)) {
      const result = await runAutocannon({ connections: CONNECTIONS, duration: DURATION, ...options });
      assert(
        result.non2xx === 0 && result.errors === 0,
        `${name}: ${result.non2xx} non-2xx, ${result.errors} errors`,
      );
      runs[name].push({ rps: result.requests.average, p50_ms: result.latency.p50 });
    }
  }
  return Object.fromEntries(
    Object.entries(runs).map(([name, list]) => [
      name,
      { req_per_s: median(list.map((x) => x.rps)), p50_ms: median(list.map((x) => x.p50_ms)), rounds: list },
    ]),
  );
}

/** Sequential requests timed from this process. */
async function timed(n, request) {
  for (let i = 0; i < 20; i++) await request(); // warm-up
  const samples = [];
  for (let i = 0; i < n; i++) {
    const start = performance.now();
    await request();
    samples.push(performance.now() - start);
  }
  return percentiles(samples, { quantiles: [50, 99] });
}

async function natsFigures(ids) {
  Logger.overrideLogger(false);
  const nc = await connect({ servers: NATS_URL });
  const nest = ClientProxyFactory.create({ transport: Transport.NATS, options: { servers: [NATS_URL] } });
  await nest.connect();
  const body = JSON.stringify({ ids });
  const reply = nc.request('acl.users.get-many', body, { timeout: 5000 });
  const profiles = (await reply).json();
  assert(
    Array.isArray(profiles) && profiles.length === USERS,
    `get-many answered ${JSON.stringify(profiles).slice(0, 200)}`,
  );
  const echo = nc.subscribe('bench.echo', { callback: (_e, msg) => msg.respond(JSON.stringify(profiles)) });
  try {
    const bare = await timed(NATS_REQUESTS, () => nc.request('acl.users.get-many', body, { timeout: 5000 }));
    const viaNest = await timed(NATS_REQUESTS, () =>
      firstValueFrom(nest.send('acl.users.get-many', { data: { ids }, meta: {} })),
    );
    const floor = await timed(NATS_REQUESTS, () => nc.request('bench.echo', body, { timeout: 5000 }));
    return {
      request: `acl.users.get-many, ${USERS} ids, answer ${JSON.stringify(profiles).length} bytes`,
      nest: viaNest,
      bare,
      echo_floor: floor,
      ratio_p50: round2(viaNest.p50_ms / bare.p50_ms),
    };
  } finally {
    echo.unsubscribe();
    await nest.close();
    await nc.close();
  }
}

function rssMib(pid) {
  const status = readFileSync(`/proc/${pid}/status`, 'utf8');
  return round2(Number(/VmRSS:\s+(\d+) kB/.exec(status)[1]) / 1024);
}

async function main() {
  const stack = await startAppStack({
    prefix: 'bench_path',
    natsUrl: NATS_URL,
    app: 'content',
    distDir: process.env.BUILD_DIST,
  });
  try {
    const token = await adminToken(stack);
    const ids = await seed(stack, token);
    const host = await withClient(stack.databases.acl.url, machine);
    const auth = { authorization: `Bearer ${token}` };
    const page = '/content/api/v1/story-categories?page_size=20';

    log('acl: users/me and health/live');
    const acl = await throughput({
      users_me: { url: `${stack.urls.acl}/acl/api/v1/users/me`, headers: auth },
      health_live: { url: `${stack.urls.acl}/acl/health/live` },
    });
    log('gateway: a page of 20 story categories, direct and through the gateway');
    const gateway = await throughput({
      direct: { url: `${stack.urls.content}${page}`, headers: auth },
      through_gateway: { url: `${stack.urls.gateway}${page}`, headers: auth },
    });
    log('gateway: the same page, one request at a time (the latency it adds)');
    const get = (url) => async () => {
      const res = await fetch(url, { headers: auth });
      assert(res.status === 200, `${url}: ${res.status}`);
      await res.arrayBuffer();
    };
    const sequential = {
      direct: await timed(SEQUENTIAL, get(`${stack.urls.content}${page}`)),
      through_gateway: await timed(SEQUENTIAL, get(`${stack.urls.gateway}${page}`)),
    };
    log('NATS: acl.users.get-many');
    const nats = await natsFigures(ids);
    const memory = Object.fromEntries(Object.entries(stack.pids).map(([name, pid]) => [name, rssMib(pid)]));

    await writeResult('request-path.json', {
      benchmark: 'the request path against the framework floor: acl, the gateway, NATS',
      measured_at: new Date().toISOString(),
      machine: host,
      load_average_at_end: loadavg().map(round2),
      setup: `acl, content and the gateway from dist as their own processes (LOG_LEVEL info), NATS ${NATS_URL}; autocannon and the NATS clients in this process`,
      settings: {
        connections: CONNECTIONS,
        duration_s: DURATION,
        rounds: ROUNDS,
        nats_requests: NATS_REQUESTS,
      },
      acl: { ...acl, ratio: round2(acl.users_me.req_per_s / acl.health_live.req_per_s) },
      gateway: {
        ...gateway,
        ratio: round2(gateway.through_gateway.req_per_s / gateway.direct.req_per_s),
        sequential,
        added_p50_ms: round2(sequential.through_gateway.p50_ms - sequential.direct.p50_ms),
      },
      nats,
      rss_mib_after_load: memory,
    });
  } finally {
    await stack.stop();
  }
}

main().catch((error) => {
  log(error?.stack ?? String(error));
  process.exitCode = 1;
});
