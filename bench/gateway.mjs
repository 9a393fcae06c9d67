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
 * Self-contained, the same requests go in interleaved rounds to: the upstream directly; Debian's
 * nginx (when installed: `apt-get install nginx-light`) with as many workers as the gateway has
 * processes and upstream keepalive 256; the bare undici proxy (one process); the gateway as one
 * process; and the gateway with GATEWAY_WORKERS processes (--workers, one per core by default).
 * The gateway ÷ bare proxy ratio compares one process with one; the gateway ÷ nginx ratio, the
 * same number of processes as nginx has workers. Each round notes the load average.
 *
 * Options: --connections 100, --duration 5 (seconds per run), --rounds 3 (interleaved; medians
 * reported), --workers <cores>, --out bench/results/gateway.json.
 *   --before <dist dir>: also the gateway of another build (its `dist`, e.g. of the previous
 *   commit built in a scratch worktree) as one process, in the same rounds.
 *   --profile: instead, the one-process gateway, the bare proxy (and --before's gateway) run
 *   under `node --cpu-prof`, loaded in turn (--rounds windows of --duration seconds each) with
 *   the small GET; each one's self time in its windows, grouped by package
 *   (bench/lib/cpu-profile.mjs), divided by the requests it served (µs per request), and what
 *   the gateway spends beyond the bare proxy, go to bench/results/gateway-profile.json (--out).
 * The gateways started here count every request against a rate limit far above the load
 * (BENCH_GATEWAY_RATE_LIMIT, default 10^9 a minute; 0 turns it off). Against a real gateway,
 * raise RATE_LIMIT_PER_MINUTE (or set 0) or every run measures 429s.
 * Compare ratios, not absolute figures: a 2-vCPU machine shares its cores between autocannon,
 * the gateway and the upstream.
 */
import { Buffer } from 'node:buffer';
import { spawn } from 'node:child_process';
import { generateKeyPairSync, randomUUID } from 'node:crypto';
import { once } from 'node:events';
import { chmodSync, existsSync, mkdirSync, mkdtempSync, readdirSync, rmSync, writeFileSync } from 'node:fs';
import * as prettier from 'prettier';
import { createServer } from 'node:http';
import { cpus, loadavg, tmpdir } from 'node:os';
import { dirname, join, resolve } from 'node:path';
import { fileURLToPath } from 'node:url';
import { parseArgs } from 'node:util';
import autocannon from 'autocannon';
import { monotonicMicros, selfTime } from './lib/cpu-profile.mjs';
import { BENCH_TOKEN_TTL, signToken, upstreamEnv } from './lib/edge.mjs';
import { build, freePort, startProcess, stopProcess, waitReady } from './lib/processes.mjs';

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
    workers: { type: 'string', default: String(cpus().length) },
    profile: { type: 'boolean', default: false },
    before: { type: 'string' },
    out: { type: 'string' },
  },
});

const resultsDir = process.env.BENCH_RESULTS_DIR ?? join(root, 'bench/results');
const outFile = args.out ?? join(resultsDir, args.profile ? 'gateway-profile.json' : 'gateway.json');
const loadAverage = () => Number(loadavg()[0].toFixed(2));

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

// ---------------------------------------------------------------- helpers

/** The nginx binary, or undefined when it is not installed. */
function findNginx() {
  return ['/usr/sbin/nginx', '/usr/local/sbin/nginx', '/usr/local/nginx/sbin/nginx'].find((path) =>
    existsSync(path),
  );
}

/**
 * Debian's nginx in front of the same upstream: `workers` worker processes, upstream keepalive
 * 256 (HTTP/1.1, no Connection header), an access log written (to /dev/null) as the gateway's
 * lines are. Returns its URL and stop(), or undefined (with the reason printed) when nginx is not
 * installed.
 */
async function startNginx(upstreamUrl, workers) {
  const binary = findNginx();
  if (!binary) {
    process.stderr.write('nginx: not installed (apt-get install -y nginx-light), not measured\n');
    return undefined;
  }
  const dir = mkdtempSync(join(tmpdir(), 'bench-nginx-'));
  // Its workers run as nobody: they write request bodies under here.
  chmodSync(dir, 0o777);
  const port = await freePort();
  const conf = `worker_processes ${workers};
daemon off;
pid ${dir}/nginx.pid;
error_log ${dir}/error.log warn;
events { worker_connections 4096; }
http {
  access_log /dev/null;
  client_body_temp_path ${dir}/body;
  proxy_temp_path ${dir}/proxy;
  fastcgi_temp_path ${dir}/fastcgi;
  uwsgi_temp_path ${dir}/uwsgi;
  scgi_temp_path ${dir}/scgi;
  client_max_body_size 50m;
  client_body_buffer_size 64k;
  keepalive_requests 100000;
  upstream fake { server ${new URL(upstreamUrl).host}; keepalive 256; keepalive_requests 100000; }
  server {
    listen 127.0.0.1:${port};
    location / {
      proxy_pass http://fake;
      proxy_http_version 1.1;
      proxy_set_header Connection "";
      proxy_set_header Host $host;
      proxy_set_header X-Forwarded-For $proxy_add_x_forwarded_for;
      proxy_set_header X-Forwarded-Proto $scheme;
    }
  }
}
`;
  writeFileSync(join(dir, 'nginx.conf'), conf);
  const child = spawn(binary, ['-p', dir, '-c', join(dir, 'nginx.conf'), '-e', join(dir, 'error.log')], {
    stdio: ['ignore', 'ignore', 'inherit'],
  });
  const url = `http://127.0.0.1:${port}`;
  try {
    await waitReady(`${url}/content/health/live`, { child, timeoutMs: 60_000, intervalMs: 100 });
  } catch (error) {
    await stopProcess(child);
    throw error;
  }
  const version = await new Promise((done) => {
    const probe = spawn(binary, ['-v'], { stdio: ['ignore', 'ignore', 'pipe'] });
    let text = '';
    probe.stderr.on('data', (chunk) => (text += chunk));
    probe.on('close', () => done(text.trim().replace(/^nginx version: /, '')));
  });
  return {
    url,
    version,
    stop: async () => {
      // SIGQUIT is nginx's graceful stop; SIGTERM its fast one.
      await stopProcess(child);
      rmSync(dir, { recursive: true, force: true });
    },
  };
}

const GATEWAY_MAIN = 'apps/gateway/src/main.js';

/** Starts the built gateway with `workers` processes (GATEWAY_WORKERS); its URL and child. */
async function startGateway(upstreamUrl, workers, nodeArgs = [], distDir) {
  const gateway = build(distDir);
  const gatewayPort = await freePort();
  const env = {
    ...process.env,
    GATEWAY_PORT: String(gatewayPort),
    GATEWAY_METRICS_PORT: '0',
    GATEWAY_WORKERS: String(workers),
    // On, as in production, but far above what one bench client sends (1200 a minute would hold
    // it back): every request is counted (with GATEWAY_WORKERS, against the primary's count).
    RATE_LIMIT_PER_MINUTE: process.env.BENCH_GATEWAY_RATE_LIMIT ?? '1000000000',
    // Access logs are written (one line per request, as in production) and discarded.
    LOG_LEVEL: 'info',
    JWT_ACCESS_TTL: BENCH_TOKEN_TTL,
    ...gateway.env,
  };
  const { child } = startProcess(
    'gateway',
    gateway.entry(GATEWAY_MAIN),
    { ...env, ...upstreamEnv(upstreamUrl) },
    {
      stderr: 'inherit',
      nodeArgs,
    },
  );
  const url = `http://127.0.0.1:${gatewayPort}`;
  await waitReady(`${url}/health/live`, { child, timeoutMs: 60_000, intervalMs: 100 });
  return { url, child };
}

/** Starts the fake upstream, nginx, the bare proxy and the built gateway; returns URLs and a stop(). */
async function startLocal({ profileDir } = {}) {
  if (!existsSync(build().entry(GATEWAY_MAIN))) throw new Error('Build first: npx nx run gateway:build');
  const { privateKey, publicKey } = generateKeyPairSync('rsa', { modulusLength: 2048 });
  const kid = 'bench-key';
  const jwk = { ...publicKey.export({ format: 'jwk' }), kid, alg: 'RS256', use: 'sig' };
  const children = [];
  const stops = [];
  const stop = async () => {
    for (const child of children.reverse()) await stopProcess(child);
    for (const done of stops) await done();
  };
  try {
    const upstream = spawn(process.execPath, [fileURLToPath(import.meta.url), '--role', 'upstream'], {
      env: { ...process.env, BENCH_JWK: JSON.stringify(jwk) },
      stdio: ['ignore', 'pipe', 'inherit'],
    });
    children.push(upstream);
    const [line] = await once(upstream.stdout, 'data');
    const upstreamUrl = `http://127.0.0.1:${JSON.parse(line.toString()).port}`;
    const token = signToken(privateKey, kid);

    const profiling = profileDir ? ['--cpu-prof', `--cpu-prof-dir=${profileDir}`] : [];
    const bare = spawn(
      process.execPath,
      [...profiling, fileURLToPath(import.meta.url), '--role', 'bare-proxy'],
      { env: { ...process.env, BENCH_UPSTREAM: upstreamUrl }, stdio: ['ignore', 'pipe', 'inherit'] },
    );
    children.push(bare);
    const [bareLine] = await once(bare.stdout, 'data');
    const bareProxyUrl = `http://127.0.0.1:${JSON.parse(bareLine.toString()).port}`;

    if (profileDir) {
      const gateway = await startGateway(upstreamUrl, 1, profiling);
      children.push(gateway.child);
      const before = args.before ? await startGateway(upstreamUrl, 1, profiling, args.before) : undefined;
      if (before) children.push(before.child);
      return {
        upstreamUrl,
        gatewayUrl: gateway.url,
        bareProxyUrl,
        gatewayBeforeUrl: before?.url,
        pids: {
          gateway: gateway.child.pid,
          bare_undici_proxy: bare.pid,
          ...(before ? { gateway_before: before.child.pid } : {}),
        },
        token,
        stop,
      };
    }

    const workers = Number(args.workers);
    const nginx = await startNginx(upstreamUrl, workers);
    if (nginx) stops.push(nginx.stop);
    const single = await startGateway(upstreamUrl, 1);
    children.push(single.child);
    const many = workers > 1 ? await startGateway(upstreamUrl, workers) : undefined;
    if (many) children.push(many.child);
    const before = args.before ? await startGateway(upstreamUrl, 1, [], args.before) : undefined;
    if (before) children.push(before.child);
    return {
      gatewayBeforeUrl: before?.url,
      upstreamUrl,
      gatewayUrl: single.url,
      gatewayWorkersUrl: many?.url,
      bareProxyUrl,
      nginxUrl: nginx?.url,
      nginxVersion: nginx?.version,
      token,
      stop,
    };
  } catch (error) {
    await stop();
    throw error;
  }
}

function run(label, options) {
  return new Promise((done, fail) => {
    const instance = autocannon(options, (error, result) => (error ? fail(error) : done(result)));
    instance.on('error', fail);
    process.stderr.write(`  ${label} ...\n`);
  });
}

function summary(result, load) {
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
    load_average_1m: load,
  };
}

function median(results) {
  const sorted = [...results].sort((a, b) => a.requests_per_second - b.requests_per_second);
  return sorted[Math.floor(sorted.length / 2)];
}

const round2 = (value) => Math.round(value * 100) / 100;

/**
 * One scenario: a warm-up of every target, then `--rounds` rounds of every target with identical
 * requests, interleaved so a noisy neighbour hits all targets alike. Each target's median round
 * (by req/s) is reported, with every round's req/s and load average beside it.
 */
async function compare(name, target, request) {
  const base = { connections: Number(args.connections), duration: Number(args.duration), ...request };
  const targets = { direct: target.upstreamUrl };
  if (target.nginxUrl) targets.nginx = target.nginxUrl;
  if (target.bareProxyUrl) targets.reference_bare_undici_proxy = target.bareProxyUrl;
  targets.through_gateway = target.gatewayUrl;
  if (target.gatewayWorkersUrl) targets.through_gateway_workers = target.gatewayWorkersUrl;
  if (target.gatewayBeforeUrl) targets.through_gateway_before = target.gatewayBeforeUrl;
  for (const [key, url] of Object.entries(targets))
    if (key !== 'direct')
      await run(`${name} ${key} warm-up`, { ...base, url: `${url}${request.path}`, duration: 2 });
  const rounds = Object.fromEntries(Object.keys(targets).map((key) => [key, []]));
  for (let round = 1; round <= Number(args.rounds); round += 1) {
    for (const [key, url] of Object.entries(targets)) {
      const result = await run(`${name} ${key} (round ${round})`, { ...base, url: `${url}${request.path}` });
      rounds[key].push(summary(result, loadAverage()));
    }
  }
  const medians = Object.fromEntries(Object.entries(rounds).map(([key, results]) => [key, median(results)]));
  const ratio = (s, to = medians.direct) => round2(s.requests_per_second / to.requests_per_second);
  const result = {
    request: { method: request.method ?? 'GET', path: request.path, body_bytes: request.body?.length ?? 0 },
    direct: medians.direct,
    through_gateway: medians.through_gateway,
    ratio_rps: ratio(medians.through_gateway),
    added_latency_p50_ms: round2(medians.through_gateway.latency_ms.p50 - medians.direct.latency_ms.p50),
    rounds_rps: Object.fromEntries(
      Object.entries(rounds).map(([key, results]) => [key, results.map((r) => r.requests_per_second)]),
    ),
    rounds_load_average: Object.fromEntries(
      Object.entries(rounds).map(([key, results]) => [key, results.map((r) => r.load_average_1m)]),
    ),
  };
  const bare = medians.reference_bare_undici_proxy;
  if (bare) {
    result.reference_bare_undici_proxy = { ...bare, ratio_rps: ratio(bare) };
    result.gateway_over_bare_proxy = ratio(medians.through_gateway, bare);
  }
  if (medians.nginx) result.nginx = { ...medians.nginx, ratio_rps: ratio(medians.nginx) };
  const workers = medians.through_gateway_workers;
  if (workers) result.through_gateway_workers = { ...workers, ratio_rps: ratio(workers) };
  const before = medians.through_gateway_before;
  if (before) {
    result.through_gateway_before = { ...before, ratio_rps: ratio(before) };
    if (bare) result.gateway_before_over_bare_proxy = ratio(before, bare);
  }
  const widest = workers ?? medians.through_gateway;
  if (medians.nginx) {
    result.gateway_over_nginx = ratio(widest, medians.nginx);
    result.gateway_p99_over_nginx = round2(widest.latency_ms.p99 / medians.nginx.latency_ms.p99);
  }
  return result;
}

async function writeReport(report) {
  mkdirSync(dirname(outFile), { recursive: true });
  // Formatted as `npm run lint` checks bench/results.
  const options = { ...(await prettier.resolveConfig(outFile)), filepath: outFile };
  writeFileSync(outFile, await prettier.format(JSON.stringify(report), options));
  process.stderr.write(`written to ${outFile}\n`);
}

/** Self time of one profiled process while `window` ran, per request, by package and function. */
function perRequest(file, window, requests) {
  const { groups, functions } = selfTime(file, { ...window, top: 40 });
  const us = (ms) => Math.round((ms * 1000 * 10) / requests) / 10;
  return {
    requests,
    busy_us_per_request: us(groups.reduce((sum, g) => sum + g.ms, 0)),
    self_time: groups.map((g) => ({ ...g, us_per_request: us(g.ms) })),
    top_functions: functions.map((f) => ({ ...f, us_per_request: us(f.ms) })),
  };
}

/**
 * --profile: the one-process gateway and the bare undici proxy, both under --cpu-prof, loaded
 * in turn (ROUNDS interleaved windows of --duration seconds each, the profiles' samples of each
 * window counted against the process loaded then) with the same authenticated small GET; self
 * time per request by package and function, and the functions the gateway spends most on beyond
 * the bare proxy.
 */
async function profile() {
  const dir = mkdtempSync(join(tmpdir(), 'bench-gateway-profile-'));
  const target = await startLocal({ profileDir: dir });
  const headers = { authorization: `Bearer ${target.token}` };
  const path = '/content/api/v1/bench';
  const base = { connections: Number(args.connections), headers };
  const urls = { gateway: target.gatewayUrl, bare_undici_proxy: target.bareProxyUrl };
  if (target.gatewayBeforeUrl) urls.gateway_before = target.gatewayBeforeUrl;
  const windows = Object.fromEntries(Object.keys(urls).map((key) => [key, []]));
  const load = [];
  try {
    for (const [key, url] of Object.entries(urls))
      await run(`${key} warm-up`, { ...base, url: `${url}${path}`, duration: 2 });
    for (let round = 1; round <= Number(args.rounds); round += 1) {
      for (const [key, url] of Object.entries(urls)) {
        const from = monotonicMicros();
        const result = await run(`${key} profiled (round ${round})`, {
          ...base,
          url: `${url}${path}`,
          duration: Number(args.duration),
        });
        windows[key].push({ from, to: monotonicMicros(), requests: result.requests.total });
        load.push(loadAverage());
      }
    }
  } finally {
    await target.stop();
  }
  const report = {
    benchmark:
      'self time per request of the gateway (one process) and the bare undici proxy, an authenticated small GET',
    measured_at: new Date().toISOString(),
    load_average_per_window: load,
    connections: Number(args.connections),
    note: 'samples taken while each process was loaded only; idle left out; µs per request = self time ÷ requests',
  };
  for (const [key, pid] of Object.entries(target.pids)) {
    const file = readdirSync(dir).find((name) => name.includes(`.${pid}.`));
    if (!file) throw new Error(`no profile of ${key} (pid ${pid}) in ${dir}`);
    // Every window of this process: the sums of all of them.
    const parts = windows[key].map((w) => perRequest(join(dir, file), w, w.requests));
    const requests = windows[key].reduce((sum, w) => sum + w.requests, 0);
    const merge = (list, name) => {
      const totals = new Map();
      for (const part of parts)
        for (const entry of part[list]) totals.set(entry[name], (totals.get(entry[name]) ?? 0) + entry.ms);
      const busy = [...totals.values()].reduce((a, b) => a + b, 0);
      return [...totals]
        .map(([label, ms]) => ({
          [name]: label,
          us_per_request: Math.round((ms * 10000) / requests) / 10,
          share: Number(((100 * ms) / busy).toFixed(1)),
        }))
        .sort((a, b) => b.us_per_request - a.us_per_request);
    };
    const groups = merge('self_time', 'group');
    report[key] = {
      requests,
      busy_us_per_request: Math.round(groups.reduce((sum, g) => sum + g.us_per_request, 0) * 10) / 10,
      self_time: groups,
      top_functions: merge('top_functions', 'function').slice(0, 40),
    };
    // BENCH_KEEP_PROFILE=1 keeps the .cpuprofile (to open in Chrome's DevTools).
    if (process.env.BENCH_KEEP_PROFILE) process.stderr.write(`profile of ${key}: ${join(dir, file)}\n`);
  }
  if (!process.env.BENCH_KEEP_PROFILE) rmSync(dir, { recursive: true, force: true });
  const bare = new Map(report.bare_undici_proxy.self_time.map((g) => [g.group, g.us_per_request]));
  const beyond = (key) =>
    report[key].self_time
      .map((g) => ({
        group: g.group,
        us_per_request: Math.round((g.us_per_request - (bare.get(g.group) ?? 0)) * 10) / 10,
      }))
      .sort((a, b) => b.us_per_request - a.us_per_request);
  report.gateway_beyond_bare_proxy_us = beyond('gateway');
  if (report.gateway_before) report.gateway_before_beyond_bare_proxy_us = beyond('gateway_before');
  await writeReport(report);
  for (const key of Object.keys(urls)) {
    const r = report[key];
    process.stderr.write(`${key}: ${r.requests} requests, ${r.busy_us_per_request} µs busy per request\n`);
    for (const g of r.self_time.slice(0, 14))
      process.stderr.write(
        `${String(g.us_per_request).padStart(7)} µs ${String(g.share).padStart(5)} %  ${g.group}\n`,
      );
  }
  process.stderr.write('gateway beyond the bare proxy, µs per request:\n');
  for (const g of report.gateway_beyond_bare_proxy_us.slice(0, 14))
    process.stderr.write(`${String(g.us_per_request).padStart(7)} µs  ${g.group}\n`);
  for (const f of report.gateway.top_functions.slice(0, 30))
    process.stderr.write(`${String(f.us_per_request).padStart(7)} µs  ${f.function}\n`);
}

async function main() {
  if (args.profile) return profile();
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
    `bench: direct ${target.upstreamUrl}, gateway ${target.gatewayUrl}` +
      (target.nginxUrl ? `, nginx ${target.nginxUrl}` : local ? ', nginx not installed' : '') +
      `, ${args.connections} connections, ${args.duration}s per run, load average ${loadAverage()}\n`,
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

  await writeReport({
    measured_at: new Date().toISOString(),
    setup: local
      ? 'fake node:http upstream, nginx, a bare undici proxy (reference) and the dist gateway (one process, and GATEWAY_WORKERS processes) as child processes, autocannon in the parent, one machine'
      : 'running servers given on the command line',
    node: process.version,
    cpus: cpus().length,
    nginx: local ? (target.nginxVersion ?? 'not installed') : undefined,
    gateway_workers: local ? Number(args.workers) : undefined,
    connections: Number(args.connections),
    duration_seconds: Number(args.duration),
    rounds: Number(args.rounds),
    authenticated: Boolean(target.token),
    load_average_at_end: loadavg().map((x) => Number(x.toFixed(2))),
    scenarios,
  });
  for (const [name, s] of Object.entries(scenarios)) {
    const parts = [
      `direct ${s.direct.requests_per_second} req/s p99 ${s.direct.latency_ms.p99} ms`,
      s.nginx && `nginx ${s.nginx.requests_per_second} p99 ${s.nginx.latency_ms.p99}`,
      s.reference_bare_undici_proxy &&
        `bare ${s.reference_bare_undici_proxy.requests_per_second} p99 ${s.reference_bare_undici_proxy.latency_ms.p99}`,
      `gateway ${s.through_gateway.requests_per_second} p99 ${s.through_gateway.latency_ms.p99}`,
      s.through_gateway_workers &&
        `gateway×${args.workers} ${s.through_gateway_workers.requests_per_second} p99 ${s.through_gateway_workers.latency_ms.p99}`,
      s.through_gateway_before &&
        `gateway before ${s.through_gateway_before.requests_per_second} p99 ${s.through_gateway_before.latency_ms.p99}`,
      s.gateway_over_bare_proxy !== undefined && `gateway÷bare ${s.gateway_over_bare_proxy}`,
      s.gateway_before_over_bare_proxy !== undefined && `before÷bare ${s.gateway_before_over_bare_proxy}`,
      s.gateway_over_nginx !== undefined &&
        `gateway÷nginx ${s.gateway_over_nginx} (p99 ×${s.gateway_p99_over_nginx})`,
    ].filter(Boolean);
    process.stderr.write(`${name}: ${parts.join(' | ')}\n`);
  }
}

if (args.role) {
  // A clean exit, so a `--cpu-prof` of the child is written.
  process.once('SIGTERM', () => process.exit(0));
}
if (args.role === 'upstream') {
  serveUpstream();
} else if (args.role === 'bare-proxy') {
  await serveBareProxy();
} else {
  await main();
}
