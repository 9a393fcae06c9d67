#!/usr/bin/env node
/**
 * Gateway overhead: the same requests sent to an upstream directly and through the gateway,
 * with autocannon; req/s and latency of both, and their ratio, go to bench/results/gateway.json.
 *
 *   node bench/gateway.mjs                      # self-contained: starts a fake upstream and the
 *                                               # built gateway (dist/) as child processes
 *   node bench/gateway.mjs --upstream http://127.0.0.1:3001 --gateway http://127.0.0.1:3000 \
 *        --path /content/health/ready [--token <jwt>]   # against running servers
 *
 * Options: --connections 100, --duration 5 (seconds per run), --rounds 3 (interleaved; medians
 * reported), --out bench/results/gateway.json.
 * Against a real gateway, raise RATE_LIMIT_PER_MINUTE (or set 0) or every run measures 429s.
 * Compare ratios, not absolute figures: a 2-vCPU machine shares its cores between autocannon,
 * the gateway and the upstream.
 */
import { Buffer } from 'node:buffer';
import { spawn } from 'node:child_process';
import { generateKeyPairSync, randomUUID } from 'node:crypto';
import { once } from 'node:events';
import { existsSync, mkdirSync, writeFileSync } from 'node:fs';
import * as prettier from 'prettier';
import { createServer } from 'node:http';
import { cpus } from 'node:os';
import { dirname, join, resolve } from 'node:path';
import { fileURLToPath } from 'node:url';
import { parseArgs } from 'node:util';
import autocannon from 'autocannon';
import { BENCH_TOKEN_TTL, signToken, upstreamEnv } from './lib/edge.mjs';
import { freePort, startProcess, stopProcess, waitReady } from './lib/processes.mjs';

const root = resolve(dirname(fileURLToPath(import.meta.url)), '..');

const { values: args } = parseArgs({
  options: {
    role: { type: 'string' },
    upstream: { type: 'string' },
    gateway: { type: 'string' },
    path: { type: 'string' },
    token: { type: 'string' },
    connections: { type: 'string', default: '100' },
    duration: { type: 'string', default: '5' },
    rounds: { type: 'string', default: '3' },
    out: {
      type: 'string',
      default: join(process.env.BENCH_RESULTS_DIR ?? join(root, 'bench/results'), 'gateway.json'),
    },
  },
});

// ---------------------------------------------------------------- the fake upstream (child)

/** Answers every prefix like a small app would: a short JSON body, JWKS for acl, keep-alive. */
function serveUpstream() {
  const jwk = JSON.parse(process.env.BENCH_JWK ?? '{}');
  const jwks = JSON.stringify({ keys: [jwk] });
  const small = JSON.stringify({ id: randomUUID(), name: 'bench', status: 'ok', items: [1, 2, 3] });
  const server = createServer((req, res) => {
    if (req.url === '/acl/.well-known/jwks.json') {
      res.writeHead(200, { 'content-type': 'application/json' }).end(jwks);
      return;
    }
    let bytes = 0;
    req.on('data', (chunk) => (bytes += chunk.length));
    req.on('end', () => {
      const body = req.method === 'POST' ? JSON.stringify({ received: bytes }) : small;
      res
        .writeHead(200, { 'content-type': 'application/json', 'content-length': Buffer.byteLength(body) })
        .end(body);
    });
  });
  server.listen(0, '127.0.0.1', () =>
    process.stdout.write(`${JSON.stringify({ port: server.address().port })}\n`),
  );
}

/**
 * The floor for a Node proxy on this machine: node:http + one undici Pool, forwarding with no
 * routing, auth, headers, limits or logs. Measured beside the gateway so its ratio can be read
 * against what any Node proxy achieves here, not only against nginx.
 */
async function serveBareProxy() {
  const { Pool } = await import('undici');
  const pool = new Pool(process.env.BENCH_UPSTREAM, { connections: 256 });
  const server = createServer((req, res) => {
    pool.dispatch(
      {
        path: req.url,
        method: req.method,
        headers: req.headers,
        body: req.headers['content-length'] ? req : null,
      },
      {
        onRequestStart() {},
        onResponseStart(_c, status, headers) {
          res.writeHead(status, headers);
        },
        onResponseData(_c, chunk) {
          res.write(chunk);
        },
        onResponseEnd() {
          res.end();
        },
        onResponseError() {
          if (!res.headersSent) res.writeHead(502);
          res.end();
        },
      },
    );
  });
  server.listen(0, '127.0.0.1', () =>
    process.stdout.write(`${JSON.stringify({ port: server.address().port })}\n`),
  );
}

if (args.role === 'upstream') {
  serveUpstream();
} else if (args.role === 'bare-proxy') {
  await serveBareProxy();
} else {
  await main();
}

// ---------------------------------------------------------------- helpers

/** Starts the fake upstream and the built gateway as child processes; returns URLs and a stop(). */
async function startLocal() {
  const gatewayMain = join(root, 'dist/apps/gateway/src/main.js');
  if (!existsSync(gatewayMain)) throw new Error('Build first: npx nx run gateway:build');
  const { privateKey, publicKey } = generateKeyPairSync('rsa', { modulusLength: 2048 });
  const kid = 'bench-key';
  const jwk = { ...publicKey.export({ format: 'jwk' }), kid, alg: 'RS256', use: 'sig' };

  const upstream = spawn(process.execPath, [fileURLToPath(import.meta.url), '--role', 'upstream'], {
    env: { ...process.env, BENCH_JWK: JSON.stringify(jwk) },
    stdio: ['ignore', 'pipe', 'inherit'],
  });
  const [line] = await once(upstream.stdout, 'data');
  const upstreamUrl = `http://127.0.0.1:${JSON.parse(line.toString()).port}`;

  const bare = spawn(process.execPath, [fileURLToPath(import.meta.url), '--role', 'bare-proxy'], {
    env: { ...process.env, BENCH_UPSTREAM: upstreamUrl },
    stdio: ['ignore', 'pipe', 'inherit'],
  });
  const [bareLine] = await once(bare.stdout, 'data');
  const bareProxyUrl = `http://127.0.0.1:${JSON.parse(bareLine.toString()).port}`;

  const gatewayPort = await freePort();
  const env = {
    ...process.env,
    GATEWAY_PORT: String(gatewayPort),
    GATEWAY_METRICS_PORT: '0',
    // Off: one bench client would otherwise be held to 1200 requests a minute.
    RATE_LIMIT_PER_MINUTE: '0',
    // Access logs are written (one line per request, as in production) and discarded.
    LOG_LEVEL: 'info',
    JWT_ACCESS_TTL: BENCH_TOKEN_TTL,
  };
  const { child: gateway } = startProcess(
    'gateway',
    gatewayMain,
    { ...env, ...upstreamEnv(upstreamUrl) },
    { stderr: 'inherit' },
  );
  const gatewayUrl = `http://127.0.0.1:${gatewayPort}`;
  await waitReady(`${gatewayUrl}/health/live`, { child: gateway, timeoutMs: 15_000, intervalMs: 100 });

  const stop = async () => {
    for (const child of [gateway, bare, upstream]) await stopProcess(child);
  };
  return { upstreamUrl, gatewayUrl, bareProxyUrl, token: signToken(privateKey, kid), stop };
}

function run(label, options) {
  return new Promise((done, fail) => {
    const instance = autocannon(options, (error, result) => (error ? fail(error) : done(result)));
    instance.on('error', fail);
    process.stderr.write(`  ${label} ...\n`);
  });
}

function summary(result) {
  return {
    requests_per_second: Math.round(result.requests.average),
    latency_ms: {
      average: result.latency.average,
      p50: result.latency.p50,
      p97_5: result.latency.p97_5,
      p99: result.latency.p99,
      max: result.latency.max,
    },
    throughput_bytes_per_second: Math.round(result.throughput.average),
    total_requests: result.requests.total,
    non_2xx: result.non2xx,
    errors: result.errors,
    timeouts: result.timeouts,
  };
}

function median(results) {
  const sorted = [...results].sort((a, b) => a.requests_per_second - b.requests_per_second);
  return sorted[Math.floor(sorted.length / 2)];
}

/**
 * One scenario: a warm-up, then `--rounds` rounds of direct, through the gateway (and through the
 * bare proxy) with identical requests, interleaved so a noisy neighbour hits all targets alike.
 * Each target's median round (by req/s) is reported, with every round's req/s beside it.
 */
async function compare(name, target, request) {
  const base = { connections: Number(args.connections), duration: Number(args.duration), ...request };
  await run(`${name} warm-up`, { ...base, url: `${target.gatewayUrl}${request.path}`, duration: 2 });
  const targets = { direct: target.upstreamUrl, through_gateway: target.gatewayUrl };
  if (target.bareProxyUrl) targets.reference_bare_undici_proxy = target.bareProxyUrl;
  const rounds = Object.fromEntries(Object.keys(targets).map((key) => [key, []]));
  for (let round = 1; round <= Number(args.rounds); round += 1) {
    for (const [key, url] of Object.entries(targets)) {
      rounds[key].push(
        summary(await run(`${name} ${key} (round ${round})`, { ...base, url: `${url}${request.path}` })),
      );
    }
  }
  const medians = Object.fromEntries(Object.entries(rounds).map(([key, results]) => [key, median(results)]));
  const ratio = (s) => Math.round((s.requests_per_second / medians.direct.requests_per_second) * 100) / 100;
  const result = {
    request: { method: request.method ?? 'GET', path: request.path, body_bytes: request.body?.length ?? 0 },
    direct: medians.direct,
    through_gateway: medians.through_gateway,
    ratio_rps: ratio(medians.through_gateway),
    added_latency_p50_ms:
      Math.round((medians.through_gateway.latency_ms.p50 - medians.direct.latency_ms.p50) * 100) / 100,
    rounds_rps: Object.fromEntries(
      Object.entries(rounds).map(([key, results]) => [key, results.map((r) => r.requests_per_second)]),
    ),
  };
  if (medians.reference_bare_undici_proxy) {
    result.reference_bare_undici_proxy = {
      ...medians.reference_bare_undici_proxy,
      ratio_rps: ratio(medians.reference_bare_undici_proxy),
    };
  }
  return result;
}

async function main() {
  const local = !args.upstream || !args.gateway;
  const target = local
    ? await startLocal()
    : {
        upstreamUrl: args.upstream.replace(/\/$/, ''),
        gatewayUrl: args.gateway.replace(/\/$/, ''),
        token: args.token,
        stop: async () => {},
      };
  const headers = target.token ? { authorization: `Bearer ${target.token}` } : {};
  const path = args.path ?? '/content/api/v1/bench';
  process.stderr.write(
    `bench: direct ${target.upstreamUrl}, gateway ${target.gatewayUrl}, ${args.connections} connections, ${args.duration}s per run\n`,
  );

  const scenarios = {};
  try {
    scenarios.get_small_json = await compare('GET small JSON', target, { path, headers });
    if (local) {
      scenarios.post_16kib_body = await compare('POST 16 KiB', target, {
        path: '/documents/api/v1/bench',
        method: 'POST',
        headers: { ...headers, 'content-type': 'application/octet-stream' },
        body: Buffer.alloc(16 * 1024, 1),
      });
    }
  } finally {
    await target.stop();
  }

  const report = {
    measured_at: new Date().toISOString(),
    setup: local
      ? 'fake node:http upstream, dist gateway and a bare undici proxy (reference) as child processes, autocannon in the parent, one machine'
      : 'running servers given on the command line',
    node: process.version,
    cpus: cpus().length,
    connections: Number(args.connections),
    duration_seconds: Number(args.duration),
    rounds: Number(args.rounds),
    authenticated: Boolean(target.token),
    scenarios,
  };
  mkdirSync(dirname(args.out), { recursive: true });
  // Formatted as `npm run lint` checks bench/results.
  const options = { ...(await prettier.resolveConfig(args.out)), filepath: args.out };
  writeFileSync(args.out, await prettier.format(JSON.stringify(report), options));
  for (const [name, s] of Object.entries(scenarios)) {
    process.stderr.write(
      `${name}: direct ${s.direct.requests_per_second} req/s p50 ${s.direct.latency_ms.p50} ms | ` +
        `gateway ${s.through_gateway.requests_per_second} req/s p50 ${s.through_gateway.latency_ms.p50} ms | ratio ${s.ratio_rps}` +
        (s.reference_bare_undici_proxy
          ? ` | bare undici proxy ratio ${s.reference_bare_undici_proxy.ratio_rps}`
          : '') +
        '\n',
    );
  }
  process.stderr.write(`written to ${args.out}\n`);
}
