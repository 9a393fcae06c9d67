#!/usr/bin/env node
/**
 * Reading an app's audit trail at a million entries (CONTRACT §8.3), over HTTP against payment
 * booted from dist (every app mounts the same platform routes; payment has no variables of its
 * own): `GET /payment/api/v1/audit?resource_id=` (one resource's entries), a page 5,000 pages deep
 * (cursor), `GET .../audit/verify` walking the whole chain (seconds, and the app's RSS sampled
 * through the walk: flat when the walk reads in batches) and `GET .../audit/export` streamed to
 * the end (seconds, bytes, RSS).
 *
 *   npx nx run-many -t build && node bench/audit-read.mjs
 *
 * Seed: ENTRIES sealed entries (default 1,000,000) INSERTed directly, chained and inserted with
 * @media/testing's `chainEntries` and `insertSealedEntries` (each hash the platform's `entryHash`,
 * as the sealer computes it), over RESOURCES resources (default 100,000, so about
 * ten entries each, spread over the whole chain), and a checkpoint every CHECKPOINT_EVERY entries
 * (default 10,000) signed RS256 with a key of this script, whose public key it serves as the
 * stand-in `audit-keys.json` (AUDIT_KEYS_URL) beside the token JWKS.
 *
 * The deep page's cursor is signed here with the platform's CursorCodec and the CURSOR_SECRET
 * given to payment, after checking that the cursor signed for the last row of the first page is
 * byte for byte the `next` payment returned (a cursor carries only the row's seq and the
 * direction); payment's answer is checked to be the 20 entries below that seq.
 *
 * The list's cases are timed interleaved with the app's liveness probe (its floor on this shared
 * machine), and the load average is kept beside them.
 *
 * Env: BENCH_DATABASE_URL (admin connection), NATS_URL (default nats://127.0.0.1:4222), ENTRIES,
 * RESOURCES, CHECKPOINT_EVERY, SEQUENTIAL (requests per list case, default 300), VERIFY_RUNS
 * (default 2), KEEP_DB=1. Writes bench/results/audit-read.json.
 */
import { createSign, randomBytes } from 'node:crypto';
import { readFileSync } from 'node:fs';
import { loadavg } from 'node:os';
import { createRequire } from 'node:module';
import {
  BENCH_TOKEN_TTL,
  explain,
  executionMs,
  httpClient,
  percentiles,
  serveJwks,
} from './lib/app-server.mjs';
import { freePort, startProcess, waitReady } from './lib/processes.mjs';
import {
  applySchema,
  assert,
  benchDatabase,
  dist,
  log,
  machine,
  seconds,
  withClient,
  writeResult,
} from './lib/seed-users.mjs';

const require = createRequire(import.meta.url);
const { GENESIS_HASH } = require(dist('libs/core/src/audit/chain.js'));
const { chainEntries, insertSealedEntries } = require(dist('libs/testing/src/audit.js'));
const { CursorCodec } = require(dist('libs/http/src/pagination/cursor.js'));
const { generateTestKeys, mintToken } = require(dist('libs/testing/src/tokens.js'));

const ENTRIES = Number(process.env.ENTRIES ?? 1_000_000);
const RESOURCES = Number(process.env.RESOURCES ?? 100_000);
const CHECKPOINT_EVERY = Number(process.env.CHECKPOINT_EVERY ?? 10_000);
const SEQUENTIAL = Number(process.env.SEQUENTIAL ?? 300);
const VERIFY_RUNS = Number(process.env.VERIFY_RUNS ?? 2);
const NATS_URL = process.env.NATS_URL ?? 'nats://127.0.0.1:4222';
const APP = 'payment';
const PAGE_SIZE = 20;
/** The deep page: 5,000 pages of 20 below the newest entry (halfway down a smaller chain). */
const DEEP_PAGES = Math.min(5_000, Math.floor(ENTRIES / PAGE_SIZE / 2));
const BATCH = 5_000;
const T0 = Date.parse('2026-01-01T00:00:00.000Z');

const database = benchDatabase('bench_audit_read');

/** A small deterministic generator, so two runs seed the same chain. */
function random(seed) {
  let state = seed >>> 0;
  return () => {
    state = (Math.imul(state, 1664525) + 1013904223) >>> 0;
    return state / 2 ** 32;
  };
}

const ACTIONS = ['collection.created', 'collection.updated', 'plan.created', 'plan.updated', 'target.set'];
const TYPES = ['collection', 'plan', 'target', 'tier', 'client'];

/** Inserts the chain in batches, returning the entries' checkpoints' heads. */
async function seed(db, signingKeys) {
  const next = random(42);
  let prev = GENESIS_HASH;
  const start = performance.now();
  const checkpoints = [];
  for (let from = 1; from <= ENTRIES; from += BATCH) {
    const unchained = [];
    for (let seq = from; seq < Math.min(from + BATCH, ENTRIES + 1); seq++) {
      const resource = Math.floor(next() * RESOURCES);
      const actor = Math.floor(next() * 1000);
      unchained.push({
        id: `00000000-0000-4000-8000-${seq.toString(16).padStart(12, '0')}`,
        at: new Date(T0 + seq * 30_000).toISOString(),
        app: APP,
        action: ACTIONS[seq % ACTIONS.length],
        actor: {
          type: 'user',
          id: `10000000-0000-4000-8000-${actor.toString(16).padStart(12, '0')}`,
          name: `User ${actor}`,
        },
        resource: { type: TYPES[resource % TYPES.length], id: `r-${resource}` },
        request_id: `req-${seq}`,
        cause: null,
        changes: { status: ['OPEN', 'DONE'], amount: [String(seq), String(seq + 1)] },
      });
    }
    const entries = chainEntries(unchained, { seq: from, prevHash: prev });
    for (const e of entries)
      if (e.seq % CHECKPOINT_EVERY === 0) checkpoints.push({ app: APP, seq: e.seq, hash: e.hash, at: e.at });
    prev = entries[entries.length - 1].hash;
    await insertSealedEntries(db, entries);
  }
  for (const checkpoint of checkpoints) {
    const header = Buffer.from(JSON.stringify({ alg: 'RS256', kid: signingKeys.kid })).toString('base64url');
    const payload = Buffer.from(JSON.stringify(checkpoint)).toString('base64url');
    const signature = createSign('RSA-SHA256')
      .update(`${header}.${payload}`)
      .sign(signingKeys.privateKeyPem)
      .toString('base64url');
    await db.query('INSERT INTO audit_checkpoints (seq, hash, at, kid, jws) VALUES ($1, $2, $3, $4, $5)', [
      checkpoint.seq,
      checkpoint.hash,
      checkpoint.at,
      signingKeys.kid,
      `${header}.${payload}.${signature}`,
    ]);
  }
  const seedSeconds = seconds(start);
  const vacuumStart = performance.now();
  await db.query('VACUUM ANALYZE audit_entries');
  await db.query('VACUUM ANALYZE audit_checkpoints');
  return {
    seconds: seedSeconds,
    vacuum_seconds: seconds(vacuumStart),
    head: prev,
    checkpoints: checkpoints.length,
  };
}

/** The app's resident set, in MB. */
function rssMb(pid) {
  const match = /VmRSS:\s+(\d+) kB/.exec(readFileSync(`/proc/${pid}/status`, 'utf8'));
  return Math.round(Number(match[1]) / 1024);
}

/**
 * Runs `work` while sampling the app's RSS every 100 ms; the samples at each tenth of the run
 * show whether memory grows with the entries walked.
 */
async function withRss(pid, work) {
  const samples = [];
  const before = rssMb(pid);
  const timer = setInterval(() => samples.push(rssMb(pid)), 100);
  const start = performance.now();
  try {
    const result = await work();
    const ms = performance.now() - start;
    const tenths = Array.from(
      { length: 11 },
      (_, i) => samples[Math.min(samples.length - 1, Math.floor((i / 10) * samples.length))],
    );
    return {
      result,
      seconds: Number((ms / 1000).toFixed(2)),
      rss_mb: { before, max: Math.max(before, ...samples), by_tenth: tenths, after: rssMb(pid) },
    };
  } finally {
    clearInterval(timer);
  }
}

async function main() {
  log(`seeding ${ENTRIES.toLocaleString('en-US')} audit entries in ${database.name}`);
  await database.create();
  let app;
  const tokenKeys = generateTestKeys();
  const signingKeys = generateTestKeys();
  const jwks = await serveJwks(tokenKeys);
  const auditKeys = await serveJwks(signingKeys);
  try {
    await applySchema(APP, database.url);
    const seeded = await withClient(database.url, async (db) => ({
      ...(await seed(db, signingKeys)),
      host: await machine(db),
    }));
    log(`seeded in ${seeded.seconds} s (vacuum ${seeded.vacuum_seconds} s)`);

    const port = await freePort();
    const cursorSecret = randomBytes(32).toString('hex');
    app = startProcess(APP, dist(`apps/${APP}/src/main.js`), {
      PORT: String(port),
      DATABASE_URL: database.url,
      NATS_URL,
      CURSOR_SECRET: cursorSecret,
      JWT_JWKS_URL: jwks.url,
      AUDIT_KEYS_URL: auditKeys.url,
      LOG_LEVEL: 'warn',
      JWT_ACCESS_TTL: BENCH_TOKEN_TTL,
      AUDIT_CHECKPOINT_INTERVAL: '1h',
    });
    const base = `http://127.0.0.1:${port}`;
    await waitReady(`${base}/${APP}/health/ready`, { child: app.child, logFile: app.logFile });
    const token = mintToken(tokenKeys, { permissions: ['audit:read'], expiresIn: 3600 });
    const http = httpClient(base, token);
    const path = `/${APP}/api/v1/audit`;

    // The deep page's cursor, signed as payment signs its own.
    const codec = new CursorCodec(cursorSecret);
    const scope = `GET ${path}`;
    const first = (await http.get(`${path}?page_size=${PAGE_SIZE}`)).body;
    assert(
      new URL(first.next).searchParams.get('cursor') ===
        codec.encode(scope, { d: 'n', k: [first.results.at(-1).seq] }),
      'a cursor signed here is the one payment puts in `next`',
    );
    const deepSeq = ENTRIES - DEEP_PAGES * PAGE_SIZE;
    const deepPath = `${path}?page_size=${PAGE_SIZE}&cursor=${codec.encode(scope, { d: 'n', k: [deepSeq + 1] })}`;
    const deepSeqs = Array.from({ length: PAGE_SIZE }, (_, j) => deepSeq - j).join();

    // Three cases interleaved in rounds, so the machine's drift falls on all alike: the app's
    // floor (its liveness probe), one resource's entries (a different resource each time) and
    // the deep page.
    const next = random(7);
    const samples = { floor: [], by_resource: [], deep: [] };
    const cases = {
      floor: async () => (await http.get(`/${APP}/health/live`)).ms,
      by_resource: async () => {
        const id = `r-${Math.floor(next() * RESOURCES)}`;
        const { ms, body } = await http.get(`${path}?resource_id=${id}`);
        assert(body.results.length > 0 && body.results.every((e) => e.resource.id === id), `resource ${id}`);
        assert(
          body.results.every((e, i, all) => i === 0 || all[i - 1].seq > e.seq),
          'newest first',
        );
        return ms;
      },
      deep: async () => {
        const { ms, body } = await http.get(deepPath);
        assert(
          body.results.map((e) => e.seq).join() === deepSeqs,
          'the deep page: the 20 entries below its cursor',
        );
        return ms;
      },
    };
    for (const run of Object.values(cases)) await run(); // warm-up
    const ROUNDS = 10;
    for (let round = 0; round < ROUNDS; round++)
      for (const [name, run] of Object.entries(cases))
        for (let i = 0; i < Math.ceil(SEQUENTIAL / ROUNDS); i++) samples[name].push(await run());
    const loadAverage = loadavg()[0];

    // The SQL of `?resource_id=` as the Paginator sends it (its shape), under EXPLAIN.
    const plan = await withClient(database.url, (db) =>
      explain(
        db,
        `SELECT * FROM audit_entries e WHERE e.seq IS NOT NULL AND e.hash IS NOT NULL AND e.resource_id = $1
          ORDER BY e.seq DESC LIMIT 21`,
        ['r-1'],
      ),
    );

    // The whole chain verified, RSS sampled through the walk.
    const verifyRuns = [];
    for (let i = 0; i < VERIFY_RUNS; i++) {
      const run = await withRss(app.child.pid, async () => {
        const res = await fetch(`${base}${path}/verify`, { headers: { authorization: `Bearer ${token}` } });
        return { status: res.status, body: await res.json() };
      });
      assert(run.result.status === 200, `verify answered ${run.result.status}`);
      assert(
        run.result.body.valid === true && run.result.body.entries === ENTRIES,
        JSON.stringify(run.result.body),
      );
      assert(run.result.body.head.hash === seeded.head, 'head');
      log(`verify: ${run.seconds} s, RSS ${JSON.stringify(run.rss_mb)}`);
      verifyRuns.push({ seconds: run.seconds, rss_mb: run.rss_mb });
    }

    // The whole chain exported, read as fast as this process reads.
    const exported = await withRss(app.child.pid, async () => {
      const res = await fetch(`${base}${path}/export`, { headers: { authorization: `Bearer ${token}` } });
      let bytes = 0;
      let lines = 0;
      for await (const chunk of res.body) {
        bytes += chunk.length;
        for (const byte of chunk) if (byte === 10) lines += 1;
      }
      return { status: res.status, bytes, lines };
    });
    assert(exported.result.status === 200, 'export');
    assert(exported.result.lines === ENTRIES + seeded.checkpoints, `export lines ${exported.result.lines}`);
    log(
      `export: ${exported.seconds} s, ${exported.result.bytes} bytes, RSS ${JSON.stringify(exported.rss_mb)}`,
    );

    const report = {
      measured_at: new Date().toISOString(),
      entries: ENTRIES,
      resources: RESOURCES,
      checkpoints: seeded.checkpoints,
      seed_seconds: seeded.seconds,
      host: seeded.host,
      load_average: Number(loadAverage.toFixed(1)),
      floor: percentiles(samples.floor),
      list_by_resource_id: percentiles(samples.by_resource),
      deep_page: { pages_deep: DEEP_PAGES, ...percentiles(samples.deep) },
      list_by_resource_id_sql: { execution_ms: executionMs(plan), plan },
      verify: {
        runs: verifyRuns,
        seconds: Math.min(...verifyRuns.map((r) => r.seconds)),
        rss_growth_mb: Math.max(...verifyRuns.map((r) => r.rss_mb.max - r.rss_mb.before)),
      },
      export: {
        seconds: exported.seconds,
        bytes: exported.result.bytes,
        lines: exported.result.lines,
        rss_mb: exported.rss_mb,
        rss_growth_mb: exported.rss_mb.max - exported.rss_mb.before,
      },
    };
    http.close();
    await writeResult('audit-read.json', report);
    log(JSON.stringify({ ...report, list_by_resource_id_sql: undefined }, null, 2));
  } finally {
    await app?.stop();
    await jwks.stop();
    await auditKeys.stop();
    await database.drop();
  }
}

main().catch((error) => {
  console.error(error);
  process.exit(1);
});
