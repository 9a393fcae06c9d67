#!/usr/bin/env node
/**
 * Bounded cost of any JSON body (docs/api/contract.md §2 "bounded cost", "bounded answers"):
 * bodies of about 1 MB of every shape that once cost more than its size, sent through the gateway
 * to `POST /acl/api/v1/auth/token` without a token (and two to `POST /assignment/api/v1/tasks`
 * with one, for lists of objects; two as plain NATS requests to acl's `acl.users.get-many`), one
 * at a time. For each shape: the status (a NATS error's code), the answer's size,
 * the wall time, and the CPU time acl (or assignment) and the gateway spent on it (from
 * /proc/<pid>/task/<tid>/schedstat, every thread, GC included), median and worst. Then, while
 * CONCURRENT clients send the LOAD_SHAPE body in a loop (from a child process at FLOOD_NICE, 19 by
 * default: the attacker's own sending yields to the stack, see bench/lib/flood.mjs),
 * the latency of `/acl/health/live` (the same process) and `/assignment/health/live` (another
 * app) against the idle stack, measured after a warm-up round and again after the flood.
 *
 *   npx nx run-many -t build && NATS_URL=nats://127.0.0.1:4222 node bench/validation-amplification.mjs
 *
 * acl, assignment and the gateway run from dist on databases of their own (bench/lib/assignment-stack.mjs).
 * Env: NATS_URL, BENCH_DATABASE_URL, SINGLE (15 requests per shape), SHAPES (comma-separated
 * names, default all), LOAD_SHAPE (many_keys), CONCURRENT (3), FLOOD_NICE (19; 0 for the flood at
 * the stack's own priority), PROBES (100 health calls per phase),
 * PROFILE=1 (acl under `node --cpu-prof`: its self time during the many_keys requests, by package
 * and function), KEEP_DB=1, OUT (file name in bench/results, default validation-amplification.json),
 * PUBLIC_BODY_LIMIT (the gateway's, default its own: 16 KiB, so the bodies without a token are
 * refused by the gateway; `PUBLIC_BODY_LIMIT=50mb` lets them through to measure acl's own bounds,
 * as before the gateway had that limit).
 * Compare ratios: this machine's 2 cores are shared. bench/results/validation-amplification.before.json
 * is this script (without the NATS shapes) on the commit before the bounded-work changes (971e23e),
 * SINGLE=5 PROFILE=1; its concurrent phase was stopped after 8 minutes.
 */
import { mkdtempSync, readdirSync, readFileSync, rmSync } from 'node:fs';
import { loadavg, tmpdir } from 'node:os';
import { join } from 'node:path';
import { connect } from '@nats-io/transport-node';
import { startAssignmentStack } from './lib/assignment-stack.mjs';
import { startFlood } from './lib/flood.mjs';
import { monotonicMicros, selfTime } from './lib/cpu-profile.mjs';
import { assert, log, machine, withClient, writeResult } from './lib/seed-users.mjs';

const NATS_URL = process.env.NATS_URL ?? 'nats://127.0.0.1:4222';
const SINGLE = Number(process.env.SINGLE ?? 15);
const CONCURRENT = Number(process.env.CONCURRENT ?? 3);
const PROBES = Number(process.env.PROBES ?? 100);
const LOAD_SHAPE = process.env.LOAD_SHAPE ?? 'many_keys';
const FLOOD_NICE = Number(process.env.FLOOD_NICE ?? 19);
const PROFILE = process.env.PROFILE === '1';
const OUT = process.env.OUT ?? 'validation-amplification.json';
const PUBLIC_BODY_LIMIT = process.env.PUBLIC_BODY_LIMIT;
/** No answer within this is counted as a timeout (the issue saw clients wait more than 30 s). */
const TIMEOUT_MS = 60_000;
/** The contract's figure for one body with no token, CPU of the app and the gateway together. */
const GOAL = { median_ms: 50, worst_ms: 100 };

const keys = (n, prefix = 'k') => Array.from({ length: n }, (_, i) => `"${prefix}${i}":1`).join(',');
const list = (n, item) => Array(n).fill(item).join(',');
const TOKEN_PATH = '/acl/api/v1/auth/token';
const TASKS_PATH = '/assignment/api/v1/tasks';
const task = (snapshot) =>
  `{"title":"Bench","type":"REVIEW","priority":"LOW","required_permissions_snapshot":${snapshot}}`;

/** Each shape: where it goes, whether it carries a token, and its body (about 1 MB, under BODY_LIMIT). */
const SHAPES = {
  many_keys: { path: TOKEN_PATH, body: () => `{${keys(80_000)}}` },
  many_keys_escaped: { path: TOKEN_PATH, body: () => `{"\\u006b":1,${keys(80_000)}}` },
  many_small_strings: {
    path: TOKEN_PATH,
    body: () => `{"email":"a@example.com","password":"x","k":[${list(250_000, '"a"')}]}`,
  },
  strings_in_a_scalar: { path: TOKEN_PATH, body: () => `{"email":[${list(250_000, '"a"')}],"password":"x"}` },
  numbers_in_a_scalar: { path: TOKEN_PATH, body: () => `{"email":[${list(400_000, '0')}],"password":"x"}` },
  objects_in_a_list: {
    path: TOKEN_PATH,
    body: () => `{"email":"a@example.com","password":"x","k":[${list(100_000, '{"a":[1]}')}]}`,
  },
  deep_nesting: { path: TOKEN_PATH, body: () => '['.repeat(1_000_000) },
  deep_nesting_at_limit: {
    path: TOKEN_PATH,
    body: () => `{"email":${'['.repeat(63)}${list(100_000, '"a"')}${']'.repeat(63)},"password":"x"}`,
  },
  duplicate_keys: { path: TOKEN_PATH, body: () => `{${list(120_000, '"k":1')}}` },
  long_string: { path: TOKEN_PATH, body: () => `{"email":"${'x'.repeat(1_000_000)}","password":"x"}` },
  not_utf8: {
    path: TOKEN_PATH,
    body: () =>
      Buffer.concat([Buffer.from(`{"email":"${'x'.repeat(1_000_000)}`), Buffer.from([0xff, 0x22, 0x7d])]),
  },
  list_element_with_many_keys: {
    path: TASKS_PATH,
    token: true,
    app: 'assignment',
    body: () => task(`[{${keys(80_000)}}]`),
  },
  nats_many_keys: { nats: 'acl.users.get-many', body: () => `{"ids":[],${keys(80_000)}}` },
  nats_deep_nesting: { nats: 'acl.users.get-many', body: () => '['.repeat(1_000_000) },
  list_element_that_is_a_list: {
    path: TASKS_PATH,
    token: true,
    app: 'assignment',
    body: () => task(`[[${list(400_000, '0')}]]`),
  },
  /**
   * Not a costly shape: the cheapest request there is (a path no app serves, answered 404 by the
   * gateway), as LOAD_SHAPE the floor of what any flood of requests does to the other apps'
   * health latency on these shared cores. Measured only when named in SHAPES or LOAD_SHAPE.
   */
  cheapest_request: { path: '/nowhere/api/v1/x', control: true, body: () => '{}' },
};
const chosen = process.env.SHAPES
  ? process.env.SHAPES.split(',')
  : Object.keys(SHAPES).filter((name) => !SHAPES[name].control);

/** CPU time of a process so far, every thread, in ms (schedstat's first field is ns on a CPU). */
function cpuMs(pid) {
  let ns = 0;
  for (const tid of readdirSync(`/proc/${pid}/task`)) {
    try {
      ns += Number(readFileSync(`/proc/${pid}/task/${tid}/schedstat`, 'utf8').split(' ')[0]);
    } catch {
      // A thread that ended between the listing and the read.
    }
  }
  return ns / 1e6;
}

async function post(gateway, shape, body, token) {
  const start = performance.now();
  try {
    const res = await fetch(`${gateway}${shape.path}`, {
      method: 'POST',
      headers: { 'content-type': 'application/json', ...(token ? { authorization: `Bearer ${token}` } : {}) },
      body,
      signal: AbortSignal.timeout(TIMEOUT_MS),
    });
    const bytes = (await res.arrayBuffer()).byteLength;
    return { status: res.status, bytes, ms: performance.now() - start };
  } catch {
    return { status: 0, bytes: 0, ms: performance.now() - start };
  }
}

/** A plain NATS request (docs/nats.md) to acl's responder, as any NATS client may send one. */
async function natsRequest(nc, shape, body) {
  const start = performance.now();
  try {
    const reply = await nc.request(shape.nats, body, { timeout: TIMEOUT_MS });
    const status = Number(reply.headers?.get('Nats-Service-Error-Code') || 200);
    return { status, bytes: reply.data.length, ms: performance.now() - start };
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

function summary(values) {
  const sorted = [...values].sort((a, b) => a - b);
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
    out[app] = summary(samples.map((s) => s.ms));
  }
  return out;
}

/** SINGLE requests of one shape, one at a time, with the CPU each cost the app and the gateway. */
async function measureShape(stack, nc, name, token) {
  const shape = SHAPES[name];
  const body = shape.body();
  const app = shape.app ?? 'acl';
  const auth = shape.token ? token : undefined;
  const send = () =>
    shape.nats ? natsRequest(nc, shape, body) : post(stack.urls.gateway, shape, body, auth);
  await send(); // warm-up
  const runs = [];
  for (let i = 0; i < SINGLE; i += 1) {
    const before = { app: cpuMs(stack.pids[app]), gateway: cpuMs(stack.pids.gateway) };
    const answer = await send();
    const appMs = cpuMs(stack.pids[app]) - before.app;
    const gatewayMs = cpuMs(stack.pids.gateway) - before.gateway;
    runs.push({ ...answer, appMs, gatewayMs, cpuMs: appMs + gatewayMs });
  }
  const cpu = summary(runs.map((r) => r.cpuMs));
  const result = {
    path: shape.path ?? `NATS ${shape.nats}`,
    token: Boolean(shape.token),
    app,
    request_bytes: Buffer.byteLength(body),
    statuses: [...new Set(runs.map((r) => r.status))],
    answer_bytes: Math.max(...runs.map((r) => r.bytes)),
    wall_ms: summary(runs.map((r) => r.ms)),
    app_cpu_ms: summary(runs.map((r) => r.appMs)),
    gateway_cpu_ms: summary(runs.map((r) => r.gatewayMs)),
    cpu_ms: cpu,
    within_goal: shape.token ? undefined : cpu.p50 <= GOAL.median_ms && cpu.max <= GOAL.worst_ms,
  };
  log(`${name}: ${JSON.stringify({ statuses: result.statuses, wall: result.wall_ms, cpu })}`);
  return result;
}

async function main() {
  const profiles = PROFILE ? mkdtempSync(join(tmpdir(), 'bench-validation-profile-')) : undefined;
  const stack = await startAssignmentStack({
    prefix: 'bench_validation',
    natsUrl: NATS_URL,
    env: PUBLIC_BODY_LIMIT ? { PUBLIC_BODY_LIMIT } : {},
    nodeArgs: profiles ? { acl: ['--cpu-prof', `--cpu-prof-dir=${profiles}`] } : {},
  });
  const window = {};
  let report;
  try {
    const gateway = stack.urls.gateway;
    const token = stack.token({ roles: ['ADMIN'], permissions: ['*'], groups: ['newsroom'] });
    await probeLatency(gateway); // warm-up: the first calls of a fresh stack compile its paths
    const idle = await probeLatency(gateway);
    log(`idle health: ${JSON.stringify(idle)}`);

    const shapes = {};
    const nc = await connect({ servers: NATS_URL });
    for (const name of chosen) {
      if (name === 'many_keys') window.from = monotonicMicros();
      shapes[name] = await measureShape(stack, nc, name, token);
      if (name === 'many_keys') window.to = monotonicMicros();
    }
    await nc.close();

    const load = SHAPES[LOAD_SHAPE];
    const flood = await startFlood({
      url: `${gateway}${load.path}`,
      body: load.body(),
      headers: {
        'content-type': 'application/json',
        ...(load.token ? { authorization: `Bearer ${token}` } : {}),
      },
      clients: CONCURRENT,
      timeoutMs: TIMEOUT_MS,
      nice: FLOOD_NICE,
    });
    const underLoad = await probeLatency(gateway);
    const loaded = await flood.stop();
    const idleAfter = await probeLatency(gateway);
    log(`idle health after the flood: ${JSON.stringify(idleAfter)}`);
    log(`health under ${CONCURRENT} concurrent: ${JSON.stringify(underLoad)}`);

    const noToken = Object.values(shapes).filter((s) => !s.token);
    report = {
      benchmark: 'validation-amplification',
      description:
        'JSON bodies of about 1 MB of every costly shape through the gateway, one at a time: status, answer size, wall time and the CPU of the app and the gateway per request; then health latency of acl and another app while CONCURRENT clients send LOAD_SHAPE in a loop',
      date: new Date().toISOString(),
      machine: await withClient(stack.databases.acl.url, machine),
      load_average: loadavg().map(round),
      gateway_public_body_limit: PUBLIC_BODY_LIMIT ?? 'default (16 KiB)',
      goal: { ...GOAL, applies_to: 'bodies without a token; CPU of the app and the gateway' },
      worst_shape_without_token: noToken.length
        ? Object.entries(shapes)
            .filter(([, s]) => !s.token)
            .map(([name, s]) => ({ name, cpu_p50_ms: s.cpu_ms.p50, cpu_max_ms: s.cpu_ms.max }))
            .sort((a, b) => b.cpu_p50_ms - a.cpu_p50_ms)[0]
        : undefined,
      shapes,
      concurrent: {
        shape: LOAD_SHAPE,
        nice: FLOOD_NICE,
        clients: CONCURRENT,
        requests: loaded.length,
        statuses: [...new Set(loaded.map((s) => s.status))],
        timeouts: loaded.filter((s) => s.status === 0).length,
        ms: summary(loaded.map((s) => s.ms)),
      },
      health_idle_ms: idle,
      health_under_load_ms: underLoad,
      health_idle_after_ms: idleAfter,
      health_p95_ratio: {
        acl: round(underLoad.acl.p95 / idle.acl.p95),
        assignment: round(underLoad.assignment.p95 / idle.assignment.p95),
      },
    };
  } finally {
    if (!process.env.KEEP_DB) await stack.stop();
  }
  if (profiles) {
    const file = readdirSync(profiles).find((name) => name.includes(`.${stack.pids.acl}.`));
    assert(file, `no profile of acl (pid ${stack.pids.acl}) in ${profiles}`);
    const { groups, functions } = selfTime(join(profiles, file), { ...window, top: 12 });
    rmSync(profiles, { recursive: true, force: true });
    report.profile_many_keys = {
      note: 'acl self time while the many_keys requests ran (node --cpu-prof)',
      self_time: groups.slice(0, 10),
      top_functions: functions,
    };
    for (const { function: name, share } of functions) log(`${String(share).padStart(5)} %  ${name}`);
  }
  await writeResult(OUT, report);
}

await main();
