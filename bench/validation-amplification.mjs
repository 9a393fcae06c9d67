#!/usr/bin/env node
/**
 * 422 amplification (docs/api/contract.md §2 "bounded answers"): `POST /acl/api/v1/auth/token` with
 * `{"email":[0,0,…×400000],"password":"x"}` (800 KB, no token) through the gateway. Measures the
 * answer's time and size alone, then while CONCURRENT such requests run in a loop, the latency of
 * `/acl/health/live` (the same process: acl's logins) and `/assignment/health/live` (another
 * app) against their latency on an idle stack.
 *
 *   npx nx run-many -t build && NATS_URL=nats://127.0.0.1:4222 node bench/validation-amplification.mjs
 *
 * acl, assignment and the gateway run from dist on databases of their own (bench/lib/assignment-stack.mjs).
 * Env: NATS_URL, BENCH_DATABASE_URL, ELEMENTS (400000), SINGLE (5 sequential big requests),
 * CONCURRENT (3), PROBES (40 health calls per phase), KEEP_DB=1, OUT (file name in bench/results,
 * default validation-amplification.json). Compare ratios: this machine's 2 cores are shared.
 * bench/results/validation-amplification.before.json is the same run (PROBES=10 SINGLE=3) on the
 * commit before the bounded-validation work (5f1440d), for comparison.
 */
import { loadavg } from 'node:os';
import { startAssignmentStack } from './lib/assignment-stack.mjs';
import { assert, log, machine, withClient, writeResult } from './lib/seed-users.mjs';

const NATS_URL = process.env.NATS_URL ?? 'nats://127.0.0.1:4222';
const ELEMENTS = Number(process.env.ELEMENTS ?? 400_000);
const SINGLE = Number(process.env.SINGLE ?? 5);
const CONCURRENT = Number(process.env.CONCURRENT ?? 3);
const PROBES = Number(process.env.PROBES ?? 40);
const OUT = process.env.OUT ?? 'validation-amplification.json';
/** No answer within this is counted as a timeout (the issue saw clients wait more than 30 s). */
const TIMEOUT_MS = 60_000;

const body = `{"email":[${Array(ELEMENTS).fill('0').join(',')}],"password":"x"}`;

async function bigRequest(gateway) {
  const start = performance.now();
  try {
    const res = await fetch(`${gateway}/acl/api/v1/auth/token`, {
      method: 'POST',
      headers: { 'content-type': 'application/json' },
      body,
      signal: AbortSignal.timeout(TIMEOUT_MS),
    });
    const bytes = (await res.arrayBuffer()).byteLength;
    return { status: res.status, bytes, ms: performance.now() - start };
  } catch {
    return { status: 0, bytes: 0, ms: performance.now() - start };
  }
}

async function probe(url) {
  const start = performance.now();
  const res = await fetch(url, { signal: AbortSignal.timeout(TIMEOUT_MS) }).catch(() => undefined);
  await res?.arrayBuffer();
  return { ok: res?.status === 200, ms: performance.now() - start };
}

const round = (ms) => Math.round(ms * 10) / 10;

function summary(samples) {
  const sorted = samples.map((s) => s.ms).sort((a, b) => a - b);
  const at = (p) => round(sorted[Math.min(sorted.length - 1, Math.floor((p / 100) * sorted.length))]);
  return { n: sorted.length, p50: at(50), p95: at(95), max: round(sorted.at(-1)) };
}

/** PROBES sequential calls of each health path, 25 ms apart. */
async function probeLatency(gateway) {
  const out = {};
  for (const app of ['acl', 'assignment']) {
    const samples = [];
    for (let i = 0; i < PROBES; i += 1) {
      samples.push(await probe(`${gateway}/${app}/health/live`));
      await new Promise((resolve) => setTimeout(resolve, 25));
    }
    assert(
      samples.every((s) => s.ok),
      `${app} health failed`,
    );
    out[app] = summary(samples);
  }
  return out;
}

async function main() {
  const stack = await startAssignmentStack({ prefix: 'bench_validation', natsUrl: NATS_URL });
  try {
    const gateway = stack.urls.gateway;
    await bigRequest(gateway); // warm-up
    const idle = await probeLatency(gateway);
    log(`idle health: ${JSON.stringify(idle)}`);

    const single = [];
    for (let i = 0; i < SINGLE; i += 1) single.push(await bigRequest(gateway));
    log(`single: ${JSON.stringify(single.map((s) => [s.status, s.bytes, round(s.ms)]))}`);

    let running = true;
    const loaded = [];
    const loops = Array.from({ length: CONCURRENT }, async () => {
      while (running) loaded.push(await bigRequest(gateway));
    });
    const underLoad = await probeLatency(gateway);
    running = false;
    await Promise.all(loops);
    log(`health under ${CONCURRENT} concurrent: ${JSON.stringify(underLoad)}`);

    const report = {
      benchmark: 'validation-amplification',
      description:
        'POST /acl/api/v1/auth/token with a 400,000-element `email` array through the gateway: answer time and size, and health latency of acl and another app while CONCURRENT such requests run',
      date: new Date().toISOString(),
      machine: await withClient(stack.databases.acl.url, machine),
      load_average: loadavg().map(round),
      request: { elements: ELEMENTS, bytes: Buffer.byteLength(body) },
      single: {
        statuses: [...new Set(single.map((s) => s.status))],
        answer_bytes: Math.max(...single.map((s) => s.bytes)),
        ms: summary(single),
      },
      concurrent: {
        clients: CONCURRENT,
        requests: loaded.length,
        statuses: [...new Set(loaded.map((s) => s.status))],
        timeouts: loaded.filter((s) => s.status === 0).length,
        ms: summary(loaded),
      },
      health_idle_ms: idle,
      health_under_load_ms: underLoad,
    };
    await writeResult(OUT, report);
  } finally {
    if (!process.env.KEEP_DB) await stack.stop();
  }
}

await main();
