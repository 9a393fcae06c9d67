/**
 * What the app benchmarks share: an app booted from dist on its own database, a JWKS served from
 * this process (so an app verifies the tokens minted here without acl), a keep-alive HTTP client
 * that times each GET, percentiles, autocannon, and the SQL a service sends, for EXPLAIN.
 */
import { once } from 'node:events';
import { createServer } from 'node:http';
import { createRequire } from 'node:module';
import autocannon from 'autocannon';
import { Client as HttpClient } from 'undici';
import { BENCH_TOKEN_TTL } from './edge.mjs';
import { startProcess, waitReady } from './processes.mjs';
import { applySchema, dist } from './seed-users.mjs';

const require = createRequire(import.meta.url);
const { DataSource } = require('typeorm');
const { databaseOptions } = require(dist('libs/platform/src/database/database.js'));

export { applySchema, BENCH_TOKEN_TTL };

/** Serves `{keys: [jwk]}` for a test key pair on a free port; returns its URL and a stop(). */
export async function serveJwks(keys) {
  const { createPublicKey } = await import('node:crypto');
  const { n, e } = createPublicKey(keys.publicKeyPem).export({ format: 'jwk' });
  const body = JSON.stringify({ keys: [{ kty: 'RSA', n, e, kid: keys.kid, alg: 'RS256', use: 'sig' }] });
  const server = createServer((_req, res) =>
    res.writeHead(200, { 'content-type': 'application/json' }).end(body),
  );
  server.listen(0, '127.0.0.1');
  await once(server, 'listening');
  const { port } = server.address();
  return {
    url: `http://127.0.0.1:${port}/.well-known/jwks.json`,
    stop: () => new Promise((r) => server.close(r)),
  };
}

/**
 * Boots `app` from dist with `env` and waits for its readiness (`readyTimeoutMs`, default 60 s);
 * stop() sends SIGTERM.
 */
export async function startApp(app, prefix, env, { readyTimeoutMs = 60_000 } = {}) {
  const { child, logFile, stop } = startProcess(app, dist(`apps/${app}/src/main.js`), {
    JWT_ACCESS_TTL: BENCH_TOKEN_TTL,
    ...env,
  });
  const base = `http://127.0.0.1:${env.PORT}`;
  try {
    await waitReady(`${base}/${prefix}/health/ready`, { child, logFile, timeoutMs: readyTimeoutMs });
  } catch (error) {
    await stop();
    throw error;
  }
  return { base, logFile, stop };
}

/** An access token of `credentials` (`{ email, password }`) from acl at `base` (an app or the gateway). */
export async function logIn(base, credentials) {
  const login = await fetch(`${base}/acl/api/v1/auth/token`, {
    method: 'POST',
    headers: { 'content-type': 'application/json' },
    body: JSON.stringify(credentials),
  });
  const { access_token: token } = await login.json();
  if (login.status !== 200 || !token) throw new Error(`login: ${login.status}`);
  return token;
}

/**
 * GETs over one keep-alive connection, timed from sending to the last byte of the body; `url` is
 * a path or an absolute URL on `base` (a `next` link). Anything but a 200 throws.
 */
export function httpClient(base, token) {
  const client = new HttpClient(base, { pipelining: 1 });
  const headers = { authorization: `Bearer ${token}`, accept: 'application/json' };
  return {
    async get(url) {
      const target = new URL(url, base);
      const start = performance.now();
      const res = await client.request({
        method: 'GET',
        path: `${target.pathname}${target.search}`,
        headers,
      });
      const text = await res.body.text();
      const ms = performance.now() - start;
      if (res.statusCode !== 200) throw new Error(`GET ${url}: ${res.statusCode} ${text}`);
      return { body: JSON.parse(text), ms };
    },
    close: () => client.close(),
  };
}

/**
 * The count, the `quantiles` (as `p<q>_ms`), and optionally the max and the mean of samples in
 * milliseconds, to two decimals. `count` names the count's key.
 */
export function percentiles(
  samples,
  { quantiles = [50, 95, 99], count = 'requests', max = true, mean = false } = {},
) {
  const sorted = [...samples].sort((a, b) => a - b);
  const at = (q) => sorted[Math.min(sorted.length - 1, Math.ceil(q * sorted.length) - 1)];
  const round = (x) => Number(x.toFixed(2));
  const figures = { [count]: samples.length };
  for (const q of quantiles) figures[`p${q}_ms`] = round(at(q / 100));
  if (max) figures.max_ms = round(sorted[sorted.length - 1]);
  if (mean) figures.mean_ms = round(samples.reduce((sum, x) => sum + x, 0) / samples.length);
  return figures;
}

/** One autocannon run with `options`; resolves with its result. */
export function runAutocannon(options) {
  return new Promise((done, fail) => {
    const instance = autocannon(options, (error, result) => (error ? fail(error) : done(result)));
    instance.on('error', fail);
  });
}

/**
 * Sequential GETs of each case, interleaved in rounds so that this shared machine's drift falls
 * on every case alike; returns the percentiles per case and the last body of each.
 */
export async function measure(http, cases, requests, rounds = 10) {
  const samples = Object.fromEntries(Object.keys(cases).map((k) => [k, []]));
  const last = {};
  for (const [name, path] of Object.entries(cases)) last[name] = (await http.get(path)).body; // warm-up
  for (let round = 0; round < rounds; round++) {
    for (const [name, path] of Object.entries(cases)) {
      for (let i = 0; i < Math.ceil(requests / rounds); i++) samples[name].push((await http.get(path)).ms);
    }
  }
  return { stats: Object.fromEntries(Object.entries(samples).map(([k, s]) => [k, percentiles(s)])), last };
}

/** EXPLAIN (ANALYZE, BUFFERS) of a statement, as text lines. */
export async function explain(db, sql, params) {
  const { rows } = await db.query(`EXPLAIN (ANALYZE, BUFFERS) ${sql}`, params);
  return rows.map((r) => r['QUERY PLAN']);
}

/** The `Execution Time` of an EXPLAIN ANALYZE, in ms. */
export const executionMs = (plan) => Number(/Execution Time: ([\d.]+) ms/.exec(plan.join('\n'))?.[1]);

/**
 * A DataSource on `url` for `entities` whose logger keeps the statements sent while `record(work)`
 * runs, so that a service's request can be replayed under EXPLAIN. Returns the DataSource (to
 * build the service on), `record(work)` resolving with `{ result, statements }`, and `close()`.
 */
export async function sqlRecorder(name, url, entities) {
  const statements = [];
  let recording = false;
  const logger = {
    logQuery: (query, parameters) => recording && statements.push({ query, parameters: parameters ?? [] }),
    logQueryError: () => undefined,
    logQuerySlow: () => undefined,
    logSchemaBuild: () => undefined,
    logMigration: () => undefined,
    log: () => undefined,
  };
  const dataSource = new DataSource({
    ...databaseOptions(name, { url }, { entities, migrations: [] }),
    logging: ['query'],
    logger,
  });
  await dataSource.initialize();
  return {
    dataSource,
    async record(work) {
      statements.length = 0;
      recording = true;
      try {
        const result = await work();
        return { result, statements: [...statements] };
      } finally {
        recording = false;
      }
    },
    close: () => dataSource.destroy(),
  };
}
