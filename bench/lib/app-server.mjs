/**
 * What the commercial and payment benchmarks share: an app booted from dist on its own database,
 * a JWKS served from this process (so an app verifies the tokens minted here without acl), a
 * keep-alive HTTP client that times each GET, and percentiles.
 */
import { spawn } from 'node:child_process';
import { once } from 'node:events';
import { createServer } from 'node:http';
import { closeSync, openSync } from 'node:fs';
import { createRequire } from 'node:module';
import { tmpdir } from 'node:os';
import { join } from 'node:path';
import { Client as HttpClient } from 'undici';
import { appMigrations, dist } from './seed-users.mjs';

const require = createRequire(import.meta.url);
const { DataSource } = require('typeorm');
const { databaseOptions, runMigrations } = require(dist('libs/platform/src/database/database.js'));

/** An app's own migrations (and the platform's outbox), exactly as it applies them at boot. */
export async function applySchema(app, url) {
  const migrations = appMigrations(app);
  const dataSource = new DataSource(databaseOptions(`${app}-bench`, { url }, { entities: [], migrations }));
  await dataSource.initialize();
  try {
    await runMigrations(app, dataSource);
  } finally {
    await dataSource.destroy();
  }
}

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

/** Boots `app` from dist with `env` and waits for its readiness; stop() sends SIGTERM. */
export async function startApp(app, prefix, env) {
  const logFile = join(tmpdir(), `bench-${app}-${Date.now()}.log`);
  const fd = openSync(logFile, 'w');
  const child = spawn(process.execPath, [dist(`apps/${app}/src/main.js`)], {
    env: { ...env, PATH: process.env.PATH ?? '' },
    stdio: ['ignore', fd, fd],
  });
  closeSync(fd);
  const base = `http://127.0.0.1:${env.PORT}`;
  const deadline = Date.now() + 60_000;
  for (;;) {
    if (child.exitCode !== null) throw new Error(`${app} exited with ${child.exitCode}; log in ${logFile}`);
    try {
      const res = await fetch(`${base}/${prefix}/health/ready`, { signal: AbortSignal.timeout(1000) });
      await res.arrayBuffer();
      if (res.ok) break;
    } catch {
      // not listening yet
    }
    if (Date.now() > deadline) throw new Error(`${app} was not ready within 60 s; log in ${logFile}`);
    await new Promise((done) => setTimeout(done, 200));
  }
  const stop = async () => {
    if (child.exitCode !== null) return;
    const kill = setTimeout(() => child.kill('SIGKILL'), 10_000);
    child.kill('SIGTERM');
    await once(child, 'exit');
    clearTimeout(kill);
  };
  return { base, logFile, stop };
}

/** GETs over one keep-alive connection, timed from sending to the last byte of the body. */
export function httpClient(base, token) {
  const client = new HttpClient(base, { pipelining: 1 });
  const headers = { authorization: `Bearer ${token}`, accept: 'application/json' };
  return {
    async get(path) {
      const start = performance.now();
      const res = await client.request({ method: 'GET', path, headers });
      const text = await res.body.text();
      const ms = performance.now() - start;
      if (res.statusCode !== 200) throw new Error(`GET ${path}: ${res.statusCode} ${text}`);
      return { body: JSON.parse(text), ms };
    },
    close: () => client.close(),
  };
}

export function percentiles(samples) {
  const sorted = [...samples].sort((a, b) => a - b);
  const at = (q) => sorted[Math.min(sorted.length - 1, Math.ceil(q * sorted.length) - 1)];
  const round = (x) => Number(x.toFixed(2));
  return {
    requests: samples.length,
    p50_ms: round(at(0.5)),
    p95_ms: round(at(0.95)),
    p99_ms: round(at(0.99)),
    max_ms: round(sorted[sorted.length - 1]),
  };
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
