#!/usr/bin/env node
/**
 * Whether the system runs for weeks: `npm start` (all apps in one process, its own temporary
 * data directory and ports) under a mixed load through the gateway for DURATION_S, sampled every
 * SAMPLE_S:
 *
 * - the load, at about RATE requests/s from WORKERS clients: logins and refreshes, a cursor list
 *   of users (two pages), story categories (list, now and then one created), tasks created and
 *   claimed by three users at once, the bookings list, chat messages posted with an
 *   Idempotency-Key (one in four sent twice), small documents uploaded (1-64 KiB), downloaded,
 *   deleted and then looked for, and the top-clients analytics; SOCKETS websockets on the chat
 *   room, each reconnecting every RECONNECT_S with `?resume=` its last seq;
 * - every sample: the runner's RSS (/proc), and from the gateway's metrics (the whole process's
 *   registry) the used heap, the event-loop lag p99 and the open handles; per operation, the
 *   p50/p99 of the requests of that interval;
 * - the goals: RSS and heap slope (MiB/h, least squares) over the last SLOPE_S, p99 of the last
 *   WINDOW_S against the WINDOW_S after the warm-up (WARMUP_S), the largest RSS, the errors
 *   (any answer but the expected one), and the exact checks: every chat message reached every
 *   websocket client (over its reconnections) from its first opening until the end, none saw a
 *   message twice, a message sent twice with one key is one message, a deleted document answers
 *   404, and of each three-way claim race exactly one claim won.
 *
 *   node bench/soak.mjs          (npm run bench builds first)
 *   BENCH_QUICK=1 BENCH_RESULTS_DIR=/tmp/soak node bench/soak.mjs     (a 60 s smoke)
 *
 * Env: DURATION_S (1800; quick 60), SAMPLE_S (30; quick 10), WARMUP_S (300; quick 10), WINDOW_S
 * (300; quick 20), SLOPE_S (1200; quick 60), RATE (68), WORKERS (8), SOCKETS (20; quick 5),
 * RECONNECT_S (180; quick 20). Writes bench/results/soak.json.
 */
import { randomBytes, randomUUID } from 'node:crypto';
import { once } from 'node:events';
import { createRequire } from 'node:module';
import { loadavg } from 'node:os';
import { percentiles } from './lib/app-server.mjs';
import { npmStart, npmStartEnv, rssMib } from './lib/npm-start.mjs';
import { assert, log, writeResult } from './lib/seed-users.mjs';

const WebSocket = createRequire(import.meta.url)('ws');

const QUICK = process.env.BENCH_QUICK === '1';
const setting = (name, full, quick) => Number(process.env[name] ?? (QUICK ? quick : full));
const DURATION_S = setting('DURATION_S', 1800, 60);
const SAMPLE_S = setting('SAMPLE_S', 30, 10);
const WARMUP_S = setting('WARMUP_S', 300, 10);
const WINDOW_S = setting('WINDOW_S', 300, 20);
const SLOPE_S = setting('SLOPE_S', 1200, 60);
const RATE = setting('RATE', 68, 68);
const WORKERS = setting('WORKERS', 8, 8);
const SOCKETS = setting('SOCKETS', 20, 5);
const RECONNECT_S = setting('RECONNECT_S', 180, 20);
/** How long after its POST was answered a chat message must have reached an open socket. */
const DELIVERY_GRACE_MS = 5_000;

const admin = { email: 'soak-admin@example.com', password: 'soak-admin-password-1' };
const round2 = (x) => Number(x.toFixed(2));
const sleep = (ms) => new Promise((done) => setTimeout(done, ms));
const MIB = 1024 * 1024;

/** Least-squares slope of `points` ([seconds, MiB]) in MiB per hour. */
function slopePerHour(points) {
  if (points.length < 2) return undefined;
  const n = points.length;
  const mx = points.reduce((s, [x]) => s + x, 0) / n;
  const my = points.reduce((s, [, y]) => s + y, 0) / n;
  const sxy = points.reduce((s, [x, y]) => s + (x - mx) * (y - my), 0);
  const sxx = points.reduce((s, [x]) => s + (x - mx) ** 2, 0);
  return sxx === 0 ? undefined : round2((sxy / sxx) * 3600);
}

/** The values of Prometheus metrics named in `names` (summed over their labels). */
async function scrape(metricsUrl, names) {
  const text = await (await fetch(metricsUrl)).text();
  const values = {};
  for (const line of text.split('\n')) {
    const match = /^([a-z0-9_:]+)(?:\{[^}]*\})? ([\d.e+-]+)$/i.exec(line);
    if (match && names.includes(match[1])) values[match[1]] = (values[match[1]] ?? 0) + Number(match[2]);
  }
  return values;
}

/** The gateway as one user: JSON requests, each timed under an operation's name. */
function client(base, record) {
  const session = { token: undefined, refresh: undefined };
  async function request(op, method, path, { body, headers = {}, expect = [200], raw = false } = {}) {
    const started = performance.now();
    const init = { method, headers: { ...headers } };
    if (session.token) init.headers.authorization = `Bearer ${session.token}`;
    if (body instanceof FormData) init.body = body;
    else if (body !== undefined) {
      init.body = JSON.stringify(body);
      init.headers['content-type'] = 'application/json';
    }
    let status;
    let data;
    try {
      const res = await fetch(new URL(path, base), init);
      status = res.status;
      data = raw ? Buffer.from(await res.arrayBuffer()) : await res.text();
      if (!raw && data) data = JSON.parse(data);
    } catch (error) {
      record(op, performance.now() - started, `${method} ${path}: ${error.message}`);
      return { status: 0 };
    }
    const unexpected = !expect.includes(status);
    record(
      op,
      performance.now() - started,
      unexpected
        ? `${method} ${path}: ${status} ${raw ? '' : JSON.stringify(data).slice(0, 200)}`
        : undefined,
    );
    return { status, data };
  }
  return {
    session,
    request,
    async logIn(credentials) {
      const { status, data } = await request('login', 'POST', '/acl/api/v1/auth/token', {
        body: credentials,
      });
      if (status === 200) Object.assign(session, { token: data.access_token, refresh: data.refresh_token });
    },
    async refresh() {
      const { status, data } = await request('refresh', 'POST', '/acl/api/v1/auth/refresh', {
        body: { refresh_token: session.refresh },
      });
      if (status === 200) Object.assign(session, { token: data.access_token, refresh: data.refresh_token });
    },
  };
}

/** Latencies and errors per operation, the current interval's and the whole run's. */
function recorder(start) {
  const all = [];
  const errors = [];
  let interval = [];
  return {
    all,
    errors,
    record(op, ms, error) {
      const entry = { op, ms, t: (performance.now() - start) / 1000 };
      all.push(entry);
      interval.push(entry);
      if (error) errors.push({ op, t: round2(entry.t), error });
    },
    takeInterval() {
      const taken = interval;
      interval = [];
      return taken;
    },
  };
}

/** p50/p99 per operation and overall of `entries`. */
function latencies(entries) {
  const byOp = {};
  for (const { op, ms } of entries) (byOp[op] ??= []).push(ms);
  const figures = (xs) => percentiles(xs, { quantiles: [50, 99], max: false });
  return {
    overall: entries.length ? figures(entries.map((e) => e.ms)) : undefined,
    by_operation: Object.fromEntries(Object.entries(byOp).map(([op, xs]) => [op, figures(xs)])),
  };
}

/** What the run sets up through the API: users in a group (one per worker, three at least), their chat room. */
async function setUp(base, record) {
  const root = client(base, record);
  await root.logIn(admin);
  assert(root.session.token, 'the administrator could not log in');
  const group = await root.request('setup', 'POST', '/acl/api/v1/groups', {
    body: { name: `soak-${Date.now()}` },
    expect: [201],
  });
  assert(group.status === 201, `create group: ${group.status}`);
  const users = [];
  // Three claim each task; all of them (one per worker at least) log in, never two at once as one.
  for (let i = 1; i <= Math.max(3, WORKERS); i++) {
    const credentials = { email: `soak-${i}-${Date.now()}@example.com`, password: `soak-password-${i}-long` };
    const made = await root.request('setup', 'POST', '/acl/api/v1/users', {
      body: { ...credentials, first_name: 'Soak', last_name: `User ${i}`, groups: [group.data.id] },
      expect: [201],
    });
    assert(made.status === 201, `create user: ${made.status} ${JSON.stringify(made.data)}`);
    users.push({ id: made.data.id, credentials });
  }
  // The administrator joins the group too; memberships count from the next login.
  const me = await root.request('setup', 'GET', '/acl/api/v1/users/me');
  const joined = await root.request('setup', 'POST', `/acl/api/v1/groups/${group.data.id}/members`, {
    body: { user_id: (me.data.data ?? me.data).id },
    expect: [200, 201, 204],
  });
  assert([200, 201, 204].includes(joined.status), `join group: ${joined.status}`);
  await root.logIn(admin);
  const room = await root.request('setup', 'POST', '/api/v1/chat/rooms', {
    body: { name: 'soak', group_id: group.data.id, member_ids: users.map((u) => u.id), document_id: null },
    expect: [201],
  });
  assert(room.status === 201, `create room: ${room.status} ${JSON.stringify(room.data)}`);
  return { root, groupId: group.data.id, users, roomId: (room.data.data ?? room.data).id };
}

/**
 * SOCKETS clients on websockets as the administrator, each reconnecting every RECONNECT_S as a
 * client does: the socket closed, a new one opened with `?resume=<last seq seen>` so that the
 * server replays what it missed. A socket the server closes (its token expired) reconnects the
 * same way. Each client keeps the chat messages it saw, over all its sockets.
 */
function sockets(base, root, record) {
  const url = `${base.replace('http', 'ws')}/api/v1/ws`;
  const clients = [];
  const timers = [];
  let stopping = false;
  async function connect(client) {
    const started = performance.now();
    const resume = client.lastSeq === undefined ? '' : `?resume=${client.lastSeq}`;
    const socket = new WebSocket(`${url}${resume}`, {
      headers: { authorization: `Bearer ${root.session.token}` },
    });
    socket.on('message', (raw) => {
      const frame = JSON.parse(raw.toString());
      if (typeof frame.seq === 'number') client.lastSeq = frame.seq;
      if (frame.event === 'chat.message') client.ids.push(frame.data.id);
      if (frame.event === 'resync') client.resyncs += 1;
    });
    socket.on('error', () => undefined);
    await once(socket, 'open');
    record('websocket connect', performance.now() - started);
    client.openedAt ??= Date.now();
    client.socket = socket;
    socket.on('close', () => {
      if (stopping || client.socket !== socket) return;
      client.serverCloses += 1;
      connect(client).catch((error) => record('websocket connect', 0, error.message));
    });
  }
  function reconnect(client) {
    const old = client.socket;
    client.socket = undefined;
    // Done with it: what still comes on it comes again on the new one, resumed from lastSeq.
    old?.removeAllListeners('message');
    old?.close();
    connect(client).catch((error) => record('websocket connect', 0, error.message));
  }
  return {
    async start() {
      for (let i = 0; i < SOCKETS; i++) {
        const client = { ids: [], lastSeq: undefined, openedAt: undefined, resyncs: 0, serverCloses: 0 };
        clients.push(client);
        await connect(client);
        // Spread over the period, so that reconnections do not all come at once.
        const again = () => {
          reconnect(client);
          timers.push(setTimeout(again, RECONNECT_S * 1000));
        };
        timers.push(setTimeout(again, (RECONNECT_S * 1000 * (i + 1)) / SOCKETS));
      }
    },
    async stop() {
      stopping = true;
      for (const timer of timers) clearTimeout(timer);
      for (const client of clients) {
        client.closedAt = Date.now();
        client.socket?.close();
      }
      return clients;
    },
  };
}

/** The mixed operations; each returns when done, recording its own requests. */
function operations(base, setup, record, checks) {
  const { root, users, roomId, groupId } = setup;
  const year = new Date().getUTCFullYear();
  const claimants = users.slice(0, 3);
  const idle = [...users];
  let n = 0;
  return [
    // A user logs in, then refreshes (each its own client: a session per login).
    [
      6,
      async () => {
        const user = idle.shift();
        if (!user) return;
        const who = client(base, record);
        try {
          await who.logIn(user.credentials);
          if (who.session.refresh) await who.refresh();
        } finally {
          idle.push(user);
        }
      },
    ],
    [
      10,
      async () => {
        const first = await root.request('users list', 'GET', '/acl/api/v1/users?page_size=20');
        if (first.data?.next) await root.request('users list', 'GET', first.data.next);
      },
    ],
    [
      10,
      async () => {
        await root.request('story categories', 'GET', '/content/api/v1/story-categories?page_size=20');
        if (n++ % 10 === 0)
          await root.request('story category create', 'POST', '/content/api/v1/story-categories', {
            body: { name: `Soak ${randomUUID()}`, description: 'soak' },
            expect: [201],
          });
      },
    ],
    [
      4,
      async () => {
        const task = await root.request('task create', 'POST', '/assignment/api/v1/tasks', {
          headers: { 'idempotency-key': randomUUID() },
          body: {
            workflow_node_code: 'soak',
            node_preview_name: 'Soak task',
            node_instructions: 'none',
            priority: 'MEDIUM',
            due_at: null,
            required_permissions_snapshot: [],
            candidate_groups: [groupId],
            source_service: 'soak',
            entity_type: 'soak',
            entity_id: randomUUID(),
            entity_reference: 'soak',
            engine_request: null,
          },
          expect: [201],
        });
        if (task.status !== 201) return;
        const id = (task.data.data ?? task.data).id;
        const answers = await Promise.all(
          claimants.map((u) =>
            root.request('task claim', 'POST', `/assignment/api/v1/tasks/${id}/claim`, {
              body: { user_id: u.id },
              expect: [200, 409],
            }),
          ),
        );
        checks.claimRaces += 1;
        if (answers.filter((a) => a.status === 200).length !== 1) checks.claimRacesWithoutOneWinner += 1;
      },
    ],
    [10, () => root.request('bookings list', 'GET', '/inventory/api/v1/bookings?page_size=20')],
    [
      12,
      async () => {
        const key = randomUUID();
        const body = { body: `soak ${key}` };
        const send = () =>
          root.request('chat message', 'POST', `/api/v1/chat/rooms/${roomId}/messages`, {
            headers: { 'idempotency-key': key },
            body,
            expect: [201],
          });
        const first = await send();
        if (first.status !== 201) return;
        const id = (first.data.data ?? first.data).id;
        checks.messages.push({ id, answeredAt: Date.now() });
        if (n++ % 4 === 0) {
          const again = await send();
          checks.retries += 1;
          if (again.status !== 201 || (again.data.data ?? again.data).id !== id) checks.retryDuplicates += 1;
        }
      },
    ],
    [
      4,
      async () => {
        const bytes = randomBytes(1024 * (1 + Math.floor(Math.random() * 64)));
        const form = new FormData();
        form.append('file', new Blob([bytes], { type: 'application/octet-stream' }), 'soak.bin');
        const made = await root.request('document upload', 'POST', '/documents/api/v1/documents', {
          body: form,
          expect: [201],
        });
        if (made.status !== 201) return;
        const id = (made.data.data ?? made.data).id;
        const content = await root.request(
          'document download',
          'GET',
          `/documents/api/v1/documents/${id}/content`,
          {
            raw: true,
          },
        );
        if (content.status === 200 && !bytes.equals(content.data)) checks.documentsCorrupted += 1;
        await root.request('document delete', 'DELETE', `/documents/api/v1/documents/${id}`, {
          expect: [204],
        });
        const gone = await root.request('document after delete', 'GET', `/documents/api/v1/documents/${id}`, {
          expect: [404],
        });
        checks.documentsDeleted += 1;
        if (gone.status !== 404) checks.documentsStillThere += 1;
      },
    ],
    [
      4,
      () =>
        root.request(
          'analytics',
          'GET',
          `/commercial/api/v1/analytics/sales/top-clients?period=YTD-${year}&limit=10`,
        ),
    ],
  ];
}

/** Runs WORKERS clients, together about RATE operations' worth of requests a second, until `until`. */
async function load(ops, until, record) {
  const total = ops.reduce((s, [w]) => s + w, 0);
  const pick = () => {
    let r = Math.random() * total;
    for (const [weight, op] of ops) if ((r -= weight) < 0) return op;
    return ops[0][1];
  };
  // An operation is about 2 requests on average: each worker paces itself to its share.
  const paceMs = (WORKERS / RATE) * 2 * 1000;
  await Promise.all(
    Array.from({ length: WORKERS }, async () => {
      while (Date.now() < until) {
        const started = Date.now();
        await pick()().catch((error) => record('unexpected', 0, error.stack));
        await sleep(Math.max(0, paceMs - (Date.now() - started)));
      }
    }),
  );
}

/** Each client's missing and repeated messages: those answered after it first opened, due before its end. */
function deliveries(messages, clients) {
  let expected = 0;
  let missing = 0;
  let repeated = 0;
  for (const c of clients) {
    const ids = new Set(c.ids);
    repeated += c.ids.length - ids.size;
    for (const m of messages) {
      if (m.answeredAt < c.openedAt || m.answeredAt + DELIVERY_GRACE_MS > c.closedAt) continue;
      expected += 1;
      if (!ids.has(m.id)) missing += 1;
    }
  }
  const sum = (key) => clients.reduce((total, c) => total + c[key], 0);
  return {
    expected,
    delivered: expected - missing,
    missing,
    repeated,
    resyncs: sum('resyncs'),
    closed_by_server: sum('serverCloses'),
  };
}

async function main() {
  const { env, remove } = await npmStartEnv('bench-soak-', admin);
  const base = `http://127.0.0.1:${env.GATEWAY_PORT}`;
  const metricsUrl = `http://127.0.0.1:${env.GATEWAY_METRICS_PORT}/metrics`;
  let run;
  try {
    run = await npmStart(env);
    log(`npm start ready in ${run.seconds} s (runner pid ${run.runner}); setting up`);
    const start = performance.now();
    const rec = recorder(start);
    const setup = await setUp(base, rec.record);
    const checks = {
      messages: [],
      retries: 0,
      retryDuplicates: 0,
      claimRaces: 0,
      claimRacesWithoutOneWinner: 0,
      documentsDeleted: 0,
      documentsStillThere: 0,
      documentsCorrupted: 0,
    };
    const ws = sockets(base, setup.root, rec.record);
    await ws.start();
    // The administrator's token, renewed well before it expires (the sockets reconnect with it).
    const renew = setInterval(() => setup.root.refresh(), 5 * 60_000);

    const samples = [];
    const metricNames = [
      'nodejs_heap_size_used_bytes',
      'nodejs_eventloop_lag_p99_seconds',
      'nodejs_active_handles_total',
    ];
    const sample = async () => {
      const metrics = await scrape(metricsUrl, metricNames).catch(() => ({}));
      const entries = rec.takeInterval();
      const heap = metrics.nodejs_heap_size_used_bytes;
      const lag = metrics.nodejs_eventloop_lag_p99_seconds;
      const s = {
        t_s: round2((performance.now() - start) / 1000),
        rss_mib: rssMib(run.runner),
        heap_used_mib: heap === undefined ? undefined : round2(heap / MIB),
        event_loop_lag_p99_ms: lag === undefined ? undefined : round2(lag * 1000),
        active_handles: metrics.nodejs_active_handles_total,
        ...latencies(entries),
      };
      samples.push(s);
      log(
        `${s.t_s} s: RSS ${s.rss_mib} MiB, heap ${s.heap_used_mib} MiB, ${entries.length} requests, p99 ${s.overall?.p99_ms} ms, ${rec.errors.length} errors`,
      );
    };
    await sample();
    const sampler = setInterval(sample, SAMPLE_S * 1000);
    const ops = operations(base, setup, rec.record, checks);
    log(`soak: ${DURATION_S} s at about ${RATE} requests/s, ${SOCKETS} websockets`);
    await load(ops, Date.now() + DURATION_S * 1000, rec.record);
    clearInterval(sampler);
    clearInterval(renew);
    await sample();
    // The last messages' deliveries are due DELIVERY_GRACE_MS after their answers.
    await sleep(DELIVERY_GRACE_MS + 1000);
    const seen = await ws.stop();
    const delivered = deliveries(checks.messages, seen);

    const between = (from, to) => rec.all.filter((e) => e.t >= from && e.t < to);
    const end = (performance.now() - start) / 1000;
    const p99After = latencies(between(WARMUP_S, WARMUP_S + WINDOW_S)).overall?.p99_ms;
    const p99End = latencies(between(end - WINDOW_S, end)).overall?.p99_ms;
    const window = samples.filter((s) => s.t_s >= end - SLOPE_S);
    const slope = (key) =>
      slopePerHour(window.filter((s) => s[key] !== undefined).map((s) => [s.t_s, s[key]]));
    const requests = rec.all.length;

    await writeResult('soak.json', {
      benchmark:
        '`npm start` under a mixed load through the gateway: memory, latency and integrity over time',
      settings: {
        duration_s: DURATION_S,
        sample_s: SAMPLE_S,
        warmup_s: WARMUP_S,
        window_s: WINDOW_S,
        slope_s: SLOPE_S,
        rate: RATE,
        workers: WORKERS,
        sockets: SOCKETS,
        reconnect_s: RECONNECT_S,
      },
      measured_at: new Date().toISOString(),
      node: process.version,
      load_average_at_end: loadavg().map(round2),
      summary: {
        requests,
        req_per_s: round2(requests / end),
        errors: rec.errors.length,
        rss_max_mib: Math.max(...samples.map((s) => s.rss_mib)),
        rss_slope_mib_per_h: slope('rss_mib'),
        heap_slope_mib_per_h: slope('heap_used_mib'),
        p99_after_warmup_ms: p99After,
        p99_at_end_ms: p99End,
        p99_end_vs_warmup: p99After && p99End ? round2(p99End / p99After) : undefined,
      },
      integrity: {
        websocket_deliveries: delivered,
        idempotent_retries: checks.retries,
        idempotent_retry_duplicates: checks.retryDuplicates,
        claim_races: checks.claimRaces,
        claim_races_without_one_winner: checks.claimRacesWithoutOneWinner,
        documents_deleted: checks.documentsDeleted,
        documents_still_there_after_delete: checks.documentsStillThere,
        documents_corrupted: checks.documentsCorrupted,
      },
      latency: latencies(rec.all),
      first_errors: rec.errors.slice(0, 20),
      samples,
    });
  } finally {
    await run?.stop();
    remove();
  }
}

main().catch((error) => {
  log(error?.stack ?? String(error));
  process.exitCode = 1;
});
