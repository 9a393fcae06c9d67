#!/usr/bin/env node
/**
 * What observability costs: acl alone, booted from dist on its own database, serving
 * `GET /acl/api/v1/users/me` (token check, one query) to autocannon, in three configurations run
 * in interleaved rounds: metrics off and tracing off, metrics on, metrics on with tracing at 10%
 * sampling (exported over OTLP/HTTP to a receiver in this process). Medians of the rounds go to
 * bench/results/observability-overhead.json.
 *
 *   npx nx run-many -t build && node bench/observability-overhead.mjs [--duration 8] [--rounds 3]
 */
import { generateKeyPairSync, randomBytes } from 'node:crypto';
import { once } from 'node:events';
import { writeFileSync } from 'node:fs';
import { createServer } from 'node:http';
import { join } from 'node:path';
import { parseArgs } from 'node:util';
import autocannon from 'autocannon';
import { startApp } from './lib/app-server.mjs';
import { freePort } from './lib/processes.mjs';
import { benchDatabase, log, root } from './lib/seed-users.mjs';

const { values: args } = parseArgs({
  options: {
    duration: { type: 'string', default: '8' },
    rounds: { type: 'string', default: '3' },
    connections: { type: 'string', default: '16' },
    out: {
      type: 'string',
      default: join(
        process.env.BENCH_RESULTS_DIR ?? join(root, 'bench/results'),
        'observability-overhead.json',
      ),
    },
  },
});

// An OTLP receiver that accepts and counts export requests, as a collector would.
let exports = 0;
const receiver = createServer((req, res) => {
  req.resume();
  req.on('end', () => {
    exports++;
    res.writeHead(200, { 'content-type': 'application/json' }).end('{}');
  });
});
receiver.listen(0, '127.0.0.1');
await once(receiver, 'listening');
const otlp = `http://127.0.0.1:${receiver.address().port}`;

const db = benchDatabase('bench_observability');
await db.create();
const { privateKey } = generateKeyPairSync('rsa', { modulusLength: 2048 });
const admin = { email: 'bench-admin@example.com', password: 'bench-admin-password-1' };
const port = await freePort();
const base = {
  DATABASE_URL: db.url,
  NATS_URL: process.env.BENCH_NATS_URL ?? 'nats://127.0.0.1:4222',
  CURSOR_SECRET: randomBytes(32).toString('hex'),
  JWT_PRIVATE_KEY: privateKey.export({ type: 'pkcs8', format: 'pem' }),
  JWT_JWKS_URL: `http://127.0.0.1:${port}/acl/.well-known/jwks.json`,
  ADMIN_EMAIL: admin.email,
  ADMIN_PASSWORD: admin.password,
  LOG_LEVEL: 'warn',
  PORT: String(port),
  ACL_PORT: String(port),
};
const configurations = {
  'metrics off, tracing off': { METRICS_ENABLED: 'false' },
  'metrics on': { METRICS_ENABLED: 'true' },
  'metrics on, tracing 10%': {
    METRICS_ENABLED: 'true',
    OTEL_EXPORTER_OTLP_ENDPOINT: otlp,
    OTEL_TRACES_SAMPLER: 'parentbased_traceidratio',
    OTEL_TRACES_SAMPLER_ARG: '0.1',
  },
};

const results = Object.fromEntries(Object.keys(configurations).map((name) => [name, []]));
try {
  for (let round = 0; round < Number(args.rounds); round++) {
    for (const [name, extra] of Object.entries(configurations)) {
      const app = await startApp('acl', 'acl', { ...base, ...extra });
      try {
        const login = await fetch(`${app.base}/acl/api/v1/auth/token`, {
          method: 'POST',
          headers: { 'content-type': 'application/json' },
          body: JSON.stringify(admin),
        });
        const { access_token: token } = await login.json();
        const run = await autocannon({
          url: `${app.base}/acl/api/v1/users/me`,
          headers: { authorization: `Bearer ${token}` },
          connections: Number(args.connections),
          duration: Number(args.duration),
        });
        if (run.non2xx || run.errors) throw new Error(`${name}: ${run.non2xx} non-2xx, ${run.errors} errors`);
        results[name].push({ rps: run.requests.average, p50: run.latency.p50, p99: run.latency.p99 });
        log(`round ${round + 1} ${name}: ${run.requests.average} req/s, p99 ${run.latency.p99} ms`);
      } finally {
        await app.stop();
      }
    }
  }
} finally {
  await db.drop();
  receiver.close();
}

const median = (values) => [...values].sort((a, b) => a - b)[Math.floor(values.length / 2)];
const baseline = median(results['metrics off, tracing off'].map((r) => r.rps));
const summary = Object.fromEntries(
  Object.entries(results).map(([name, runs]) => {
    const rps = median(runs.map((r) => r.rps));
    return [
      name,
      {
        req_per_s: rps,
        p50_ms: median(runs.map((r) => r.p50)),
        p99_ms: median(runs.map((r) => r.p99)),
        overhead_pct: Number((((baseline - rps) / baseline) * 100).toFixed(1)),
        rounds: runs,
      },
    ];
  }),
);
const report = {
  endpoint: 'GET /acl/api/v1/users/me (acl alone, autocannon)',
  connections: Number(args.connections),
  duration_s: Number(args.duration),
  otlp_exports_received: exports,
  measured_at: new Date().toISOString(),
  results: summary,
};
writeFileSync(args.out, `${JSON.stringify(report, null, 2)}\n`);
log(
  JSON.stringify(
    Object.fromEntries(
      Object.entries(summary).map(([k, v]) => [k, `${v.req_per_s} req/s (${v.overhead_pct}%)`]),
    ),
  ),
);
