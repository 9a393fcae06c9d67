#!/usr/bin/env node
/**
 * Where an app's memory goes, and whether it stays flat: acl alone from dist (its own database,
 * NATS of NATS_URL), with bench/lib/memory-probe.cjs preloaded to sample its memory from inside
 * every second (process.memoryUsage and V8's heap spaces):
 *
 * - idle: IDLE_SECONDS after it is ready, before any request;
 * - under load: LOAD_SECONDS of autocannon (CONNECTIONS connections, `GET /acl/api/v1/users/me`
 *   with an admin's token, straight to acl); "after load" is the last sample of the load;
 * - growth: RSS and used heap at the end of the last quarter of the load minus at its start (a
 *   leak shows there; the first minutes are the heap finding its size).
 *
 *   npm run build --silent && node bench/memory.mjs
 *
 * Env: NATS_URL, LOAD_SECONDS (600), CONNECTIONS (16), IDLE_SECONDS (5), NODE_ARGS (acl's node
 * flags; by default the image's NODE_OPTIONS from the Dockerfile, `NODE_ARGS=` for none),
 * the allocator (by default the image's: jemalloc preloaded with its MALLOC_CONF, from the
 * Dockerfile; LD_PRELOAD replaces it, `LD_PRELOAD=` for glibc's malloc), and any other allocator
 * setting in the environment (glibc's `MALLOC_*` and GLIBC_TUNABLES, jemalloc's MALLOC_CONF),
 * handed to acl as is. BUILD_DIST: acl of another build's dist (e.g. the previous build's, to
 * compare; default this checkout's).
 * Writes bench/results/memory.json.
 */
import { existsSync, readFileSync, rmSync } from 'node:fs';
import { createRequire } from 'node:module';
import { loadavg, tmpdir } from 'node:os';
import { join } from 'node:path';
import { BENCH_TOKEN_TTL, logIn, runAutocannon } from './lib/app-server.mjs';
import { build, freePort, startProcess, waitReady } from './lib/processes.mjs';
import {
  aclEnv,
  assert,
  BENCH_ADMIN,
  benchDatabase,
  dist,
  log,
  root,
  writeResult,
} from './lib/seed-users.mjs';

const require = createRequire(import.meta.url);
const { generateTestKeys } = require(dist('libs/testing/src/tokens.js'));

const NATS_URL = process.env.NATS_URL ?? 'nats://127.0.0.1:4222';
const LOAD_SECONDS = Number(process.env.LOAD_SECONDS ?? 600);
const CONNECTIONS = Number(process.env.CONNECTIONS ?? 16);
const IDLE_SECONDS = Number(process.env.IDLE_SECONDS ?? 5);
const BUILD = build(process.env.BUILD_DIST);
/** The image's NODE_OPTIONS (Dockerfile), so that acl runs as deployed; NODE_ARGS replaces them. */
const DOCKERFILE = readFileSync(join(root, 'Dockerfile'), 'utf8');
const IMAGE_NODE_OPTIONS = /NODE_OPTIONS=(\S+)/.exec(DOCKERFILE)?.[1] ?? '';
/**
 * The image's allocator (Dockerfile): jemalloc preloaded, with its MALLOC_CONF. acl gets the
 * host's copy of the library (Debian's libjemalloc2) in place of the image's path; LD_PRELOAD in
 * this run's environment replaces it (`LD_PRELOAD=` for glibc's malloc).
 */
const IMAGE_PRELOAD = /LD_PRELOAD=(\S+)/.exec(DOCKERFILE)?.[1];
const IMAGE_MALLOC_CONF = /MALLOC_CONF=(\S+)/.exec(DOCKERFILE)?.[1];
const HOST_JEMALLOC = ['x86_64-linux-gnu', 'aarch64-linux-gnu', '']
  .map((dir) => join('/usr/lib', dir, 'libjemalloc.so.2'))
  .find((path) => existsSync(path));
function allocator() {
  if (process.env.LD_PRELOAD !== undefined) return { LD_PRELOAD: process.env.LD_PRELOAD };
  if (!IMAGE_PRELOAD) return {};
  if (!IMAGE_PRELOAD.includes('jemalloc'))
    throw new Error(`the image preloads ${IMAGE_PRELOAD}: not known here`);
  if (!HOST_JEMALLOC) {
    throw new Error(
      'the image preloads jemalloc: install it here (apt-get install libjemalloc2), or set LD_PRELOAD=',
    );
  }
  return { LD_PRELOAD: HOST_JEMALLOC, ...(IMAGE_MALLOC_CONF ? { MALLOC_CONF: IMAGE_MALLOC_CONF } : {}) };
}
/**
 * The allocator settings given to this run (a variant to measure), passed on to acl after the
 * image's: glibc's (`MALLOC_*`, GLIBC_TUNABLES) or jemalloc's MALLOC_CONF.
 */
const MALLOC_SETTINGS = Object.fromEntries(
  Object.entries(process.env).filter(([name]) => name.startsWith('MALLOC_') || name === 'GLIBC_TUNABLES'),
);
const NODE_ARGS = (process.env.NODE_ARGS ?? IMAGE_NODE_OPTIONS).split(/\s+/).filter(Boolean);
const PROBE = join(root, 'bench', 'lib', 'memory-probe.cjs');
const ALLOCATOR = allocator();

const round2 = (x) => Number(x.toFixed(2));
const sleep = (ms) => new Promise((done) => setTimeout(done, ms));

function readSamples(file) {
  return readFileSync(file, 'utf8')
    .split('\n')
    .filter(Boolean)
    .map((line) => JSON.parse(line));
}

/** One sample as the breakdown the docs quote: where the resident memory is. */
function breakdown(s) {
  const space = (name) => s.spaces[name] ?? { size: 0, used: 0 };
  return {
    rss_mib: s.rss,
    heap_total_mib: s.heap_total,
    heap_used_mib: s.heap_used,
    // Buffers and other memory V8 is told about but does not hold in its heap.
    external_mib: s.external,
    array_buffers_mib: s.array_buffers,
    // The node binary's code and data, libuv, OpenSSL, malloc's arenas, thread stacks...
    outside_v8_heap_mib: round2(s.rss - s.heap_total - s.external),
    new_space_mib: space('new_space'),
    old_space_mib: space('old_space'),
    code_space_mib: space('code_space'),
    large_object_space_mib: space('large_object_space'),
    spaces: s.spaces,
  };
}

/** GC between two samples: pauses by kind, and their share of the wall time (the cost of a small heap). */
function gcDuring(first, last, requests) {
  const seconds = (last.t - first.t) / 1000;
  const ms = (kind) => last.gc[`${kind}_ms`] - first.gc[`${kind}_ms`];
  return {
    minor: last.gc.minor - first.gc.minor,
    major: last.gc.major - first.gc.major,
    minor_ms_per_s: round2(ms('minor') / seconds),
    major_ms_per_s: round2(ms('major') / seconds),
    ms_per_1000_requests: round2(((ms('minor') + ms('major')) / requests) * 1000),
  };
}

async function main() {
  const db = benchDatabase('bench_memory');
  await db.create();
  const keys = generateTestKeys();
  const port = await freePort();
  const url = `http://127.0.0.1:${port}`;
  const probeFile = join(tmpdir(), `bench-memory-${Date.now()}.jsonl`);
  const { child, logFile, stop } = startProcess(
    'memory-acl',
    BUILD.entry('apps/acl/src/main.js'),
    aclEnv(
      { port, databaseUrl: db.url, natsUrl: NATS_URL, keys },
      {
        JWT_ACCESS_TTL: BENCH_TOKEN_TTL,
        ...BUILD.env,
        MEMORY_PROBE_FILE: probeFile,
        ...ALLOCATOR,
        ...MALLOC_SETTINGS,
      },
    ),
    { nodeArgs: ['--require', PROBE, ...NODE_ARGS] },
  );
  try {
    await waitReady(`${url}/acl/health/ready`, { child, logFile, timeoutMs: 90_000 });
    await sleep(IDLE_SECONDS * 1000);
    const idle = readSamples(probeFile).at(-1);

    const token = await logIn(url, BENCH_ADMIN);

    log(`acl: GET users/me for ${LOAD_SECONDS} s, ${CONNECTIONS} connections`);
    const from = Date.now();
    const result = await runAutocannon({
      url: `${url}/acl/api/v1/users/me`,
      headers: { authorization: `Bearer ${token}` },
      connections: CONNECTIONS,
      duration: LOAD_SECONDS,
    });
    const to = Date.now();
    assert(result.non2xx === 0, `${result.non2xx} non-2xx answers under load`);
    await sleep(1_100);
    const load = readSamples(probeFile).filter((s) => s.t >= from && s.t <= to + 1_000);
    assert(load.length >= 4, `only ${load.length} samples under load`);
    const quarter = load.slice(-Math.max(2, Math.floor(load.length / 4)));
    const afterLoad = load.at(-1);
    const every = Math.max(1, Math.round(load.length / 60));

    await writeResult('memory.json', {
      benchmark: "where an app's memory goes: acl alone, idle and under `GET users/me` load",
      measured_at: new Date().toISOString(),
      node: process.version,
      load_average_at_end: loadavg().map(round2),
      settings: {
        load_seconds: LOAD_SECONDS,
        connections: CONNECTIONS,
        idle_seconds: IDLE_SECONDS,
        node_args: NODE_ARGS,
        allocator: { ...ALLOCATOR, ...MALLOC_SETTINGS },
      },
      idle: breakdown(idle),
      after_load: breakdown(afterLoad),
      load: {
        requests: result.requests.total,
        req_per_s: result.requests.average,
        rss_max_mib: Math.max(...load.map((s) => s.rss)),
        gc: gcDuring(load[0], afterLoad, result.requests.total),
        heap_total_max_mib: Math.max(...load.map((s) => s.heap_total)),
        rss_last_quarter_growth_mib: round2(quarter.at(-1).rss - quarter[0].rss),
        heap_used_last_quarter_growth_mib: round2(quarter.at(-1).heap_used - quarter[0].heap_used),
        // Sparse enough to read: about 60 points over the load.
        rss_mib_samples: load.filter((_, i) => i % every === 0).map((s) => s.rss),
        sample_every_s: every,
      },
    });
  } finally {
    await stop();
    await db.drop();
    rmSync(probeFile, { force: true });
  }
}

main().catch((error) => {
  log(error?.stack ?? String(error));
  process.exitCode = 1;
});
