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
 * - every sample: the runner's RSS (/proc) and its parts (anonymous pages, mapped files), and
 *   from the gateway's metrics (the whole process's registry) the used heap, V8's committed heap,
 *   external memory, the event-loop lag p99 and the open handles; the heap's floor, the least used
 *   heap of readings FLOOR_S apart over the interval (what survives a collection, where one
 *   reading lands anywhere on the GC's saw-tooth); per operation, the p50/p99 of the requests of
 *   that interval;
 * - the goals: RSS and heap (its floor) slope (MiB/h, least squares) over the last SLOPE_S, p99 of the last
 *   WINDOW_S against the WINDOW_S after the warm-up (WARMUP_S), the largest RSS, the errors
 *   (any answer but the expected one), and the exact checks: every chat message reached every
 *   websocket client (over its reconnections) from its first opening until the end, none saw a
 *   message twice, a message sent twice with one key is one message, a deleted document answers
 *   404, and of each three-way claim race exactly one claim won.
 *
 * - then BURST_S at BURST_FACTOR times the rate (as many times the workers): its own latency,
 *   errors and largest RSS (the goals above are the steady phase's; "throughout" covers both);
 * - every sample also records the machine's load average (the machine may be shared), and at
 *   the end the tables that grew: per database the largest, with their scans, and the plans
 *   (EXPLAIN ANALYZE, on the grown tables) of what attaching, downloading and deleting a
 *   document run.
 *
 *   node bench/soak.mjs          (npm run bench builds first)
 *   BENCH_QUICK=1 BENCH_RESULTS_DIR=/tmp/soak node bench/soak.mjs     (a 60 s smoke)
 *   HEAP_SNAPSHOTS=300,900,1500 SNAPSHOT_DIR=/tmp/snaps node bench/soak.mjs
 *       (the runner writes a heap snapshot at those seconds of the soak; a snapshot stops the
 *       process for seconds and doubles its memory meanwhile, so such a run's figures are not
 *       the table's)
 *
 * Env: DURATION_S (1800; quick 60), SAMPLE_S (30; quick 10), FLOOR_S (2), WARMUP_S (300; quick 10), WINDOW_S
 * (300; quick 20), SLOPE_S (1200; quick 60), RATE (68), WORKERS (8), SOCKETS (20; quick 5),
 * RECONNECT_S (180; quick 20), BURST_S (300; quick 20), BURST_FACTOR (3), SLOTS (200),
 * HEAP_SNAPSHOTS, SNAPSHOT_DIR, KEEP_DATA=1 (keep the data directory, and say where).
 * Writes bench/results/soak.json.
 */
import { randomBytes, randomUUID } from 'node:crypto';
import { once } from 'node:events';
import { createRequire } from 'node:module';
import { mkdirSync, readFileSync } from 'node:fs';
import { loadavg, tmpdir } from 'node:os';
import { join } from 'node:path';
import { percentiles } from './lib/app-server.mjs';
import { npmStart, npmStartEnv, residentMib } from './lib/npm-start.mjs';
import { assert, log, withClient, writeResult } from './lib/seed-users.mjs';

const WebSocket = createRequire(import.meta.url)('ws');

const QUICK = process.env.BENCH_QUICK === '1';
const setting = (name, full, quick) => Number(process.env[name] ?? (QUICK ? quick : full));
const DURATION_S = setting('DURATION_S', 1800, 60);
const SAMPLE_S = setting('SAMPLE_S', 30, 10);
const FLOOR_S = setting('FLOOR_S', 2, 2);
const WARMUP_S = setting('WARMUP_S', 300, 10);
const WINDOW_S = setting('WINDOW_S', 300, 20);
const SLOPE_S = setting('SLOPE_S', 1200, 60);
const RATE = setting('RATE', 68, 68);
const WORKERS = setting('WORKERS', 8, 8);
const SOCKETS = setting('SOCKETS', 20, 5);
const RECONNECT_S = setting('RECONNECT_S', 180, 20);
const BURST_S = setting('BURST_S', 300, 20);
const BURST_FACTOR = setting('BURST_FACTOR', 3, 3);
const SLOTS = setting('SLOTS', 200, 50);
const HEAP_SNAPSHOTS = (process.env.HEAP_SNAPSHOTS ?? '').split(',').filter(Boolean).map(Number);
const SNAPSHOT_DIR = process.env.SNAPSHOT_DIR ?? join(tmpdir(), 'soak-heap-snapshots');
const KEEP_DATA = process.env.KEEP_DATA === '1';
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
  const { scheduleId, slotIds } = await lineup(root);
  return {
    root,
    groupId: group.data.id,
    users,
    roomId: (room.data.data ?? room.data).id,
    scheduleId,
    slotIds,
  };
}

/** A broadcast schedule of this month with SLOTS slots, to which documents are attached. */
async function lineup(root) {
  const now = new Date();
  const year = now.getUTCFullYear();
  const month = now.getUTCMonth() + 1;
  const day = (d) => `${year}-${String(month).padStart(2, '0')}-${String(d).padStart(2, '0')}`;
  const two = (x) => String(x).padStart(2, '0');
  const slots = Array.from({ length: SLOTS }, (_, i) => ({
    air_date: day(1 + (i % 28)),
    start_time: `${two(Math.floor(i / 28) % 24)}:${two((i * 7) % 60)}`,
    duration_seconds: 1800,
    title: `Soak slot ${i + 1}`,
  }));
  const made = await root.request('setup', 'POST', '/content/api/v1/lineup', {
    body: {
      medium: 'TV',
      channel: 'Soak',
      month,
      year,
      title: 'Soak schedule',
      effective_from: day(1),
      effective_to: day(28),
      slots,
    },
    expect: [201],
  });
  assert(made.status === 201, `create schedule: ${made.status} ${JSON.stringify(made.data)}`);
  const scheduleId = (made.data.data ?? made.data).id;
  const slotIds = (await scheduleSlots(root, scheduleId)).map((s) => s.id);
  assert(slotIds.length === SLOTS, `the schedule has ${slotIds.length} slots, not ${SLOTS}`);
  return { scheduleId, slotIds };
}

/** Every slot of the schedule (with its assets), page after page. */
async function scheduleSlots(root, scheduleId) {
  const slots = [];
  let next = `/content/api/v1/lineup/${scheduleId}/slots?page_size=100`;
  while (next) {
    const page = await root.request('setup', 'GET', next);
    assert(page.status === 200, `slots of the schedule: ${page.status} ${JSON.stringify(page.data)}`);
    slots.push(...page.data.results);
    next = page.data.next;
  }
  return slots;
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
  const { root, users, roomId, groupId, slotIds } = setup;
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
        // A race with a failed claim (an error, counted as such) says nothing about the winners.
        if (answers.some((a) => a.status !== 200 && a.status !== 409)) return;
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
          // A failed retry is an error (counted as such), not a duplicate.
          if (again.status !== 201) return;
          checks.retries += 1;
          if ((again.data.data ?? again.data).id !== id) checks.retryDuplicates += 1;
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
        const slotId = slotIds[Math.floor(Math.random() * slotIds.length)];
        await root.request(
          'attach document to slot',
          'POST',
          `/content/api/v1/lineup/slots/${slotId}/assets`,
          {
            body: { document_id: id },
          },
        );
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
        checks.deletedIds.add(id);
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

/** Runs `workers` clients, together about `rate` operations' worth of requests a second, until `until`. */
async function load(ops, until, record, { workers = WORKERS, rate = RATE } = {}) {
  const total = ops.reduce((s, [w]) => s + w, 0);
  const pick = () => {
    let r = Math.random() * total;
    for (const [weight, op] of ops) if ((r -= weight) < 0) return op;
    return ops[0][1];
  };
  // An operation is about 2 requests on average: each worker paces itself to its share.
  const paceMs = (workers / rate) * 2 * 1000;
  await Promise.all(
    Array.from({ length: workers }, async () => {
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

/** The URL of database `name` on the runner's own PostgreSQL (its port and password are in DATA_DIR). */
function embeddedDatabaseUrl(dataDir, name) {
  const { postgresPassword } = JSON.parse(readFileSync(join(dataDir, 'secrets.json'), 'utf8'));
  const { postgres } = JSON.parse(readFileSync(join(dataDir, 'embedded.json'), 'utf8'));
  return `postgres://postgres:${encodeURIComponent(postgresPassword)}@127.0.0.1:${postgres.port}/${name}`;
}

/**
 * Per app database, its largest tables: rows live and dead, bytes, and how they were read
 * (sequential scans and the rows they read, index scans). A table read whole again and again
 * while it grows is what makes a latency creep.
 */
async function tableGrowth(dataDir) {
  const names = await withClient(embeddedDatabaseUrl(dataDir, 'postgres'), async (db) =>
    (await db.query(`SELECT datname FROM pg_database WHERE datname LIKE 'media%' ORDER BY datname`)).rows.map(
      (r) => r.datname,
    ),
  );
  const out = {};
  for (const name of names) {
    out[name] = await withClient(embeddedDatabaseUrl(dataDir, name), async (db) => {
      const { rows } = await db.query(
        `SELECT relname AS table, n_live_tup::int AS live, n_dead_tup::int AS dead,
                pg_total_relation_size(relid)::bigint AS bytes, seq_scan::bigint AS seq_scans,
                seq_tup_read::bigint AS seq_rows_read, COALESCE(idx_scan, 0)::bigint AS index_scans,
                autovacuum_count::int AS autovacuums
           FROM pg_stat_user_tables
          ORDER BY pg_total_relation_size(relid) DESC
          LIMIT 8`,
      );
      return rows.map((r) => ({
        ...r,
        bytes: Number(r.bytes),
        seq_scans: Number(r.seq_scans),
        seq_rows_read: Number(r.seq_rows_read),
        index_scans: Number(r.index_scans),
      }));
    });
  }
  return out;
}

/**
 * EXPLAIN ANALYZE, on the grown tables, of the statements of attaching a document to a slot,
 * downloading one and applying its deletion (writes in a transaction rolled back): their
 * execution time and whether any of them reads a table whole.
 */
async function explainPaths(dataDir, { slotId, documentId, userId }) {
  const cases = [
    ['media_content', 'slot of the attach', `SELECT schedule_id FROM slots WHERE id = $1`, [slotId]],
    [
      'media_content',
      'tombstone check of the attach',
      `SELECT 1 FROM deleted_documents WHERE document_id = $1`,
      [documentId],
    ],
    [
      'media_content',
      'attach insert (with its audit entry)',
      `INSERT INTO slot_assets (slot_id, document_id, attached_by, attached_at)
       SELECT id, $2, $3, now() FROM slots WHERE id = $1 ON CONFLICT DO NOTHING RETURNING slot_id`,
      [slotId, documentId, userId],
    ],
    [
      'media_content',
      "schedule's slot counts",
      `SELECT schedule_id, air_date::text, count(*)::int FROM slots
        WHERE schedule_id = ANY((SELECT array_agg(schedule_id) FROM slots WHERE id = $1)::uuid[])
        GROUP BY schedule_id, air_date`,
      [slotId],
    ],
    [
      'media_content',
      'deletion event: attachments removed',
      `DELETE FROM slot_assets WHERE document_id = $1`,
      [documentId],
    ],
    [
      'media_content',
      'deletion event: processed-event record',
      `INSERT INTO processed_events (event_id, consumer) VALUES (gen_random_uuid(), 'soak') ON CONFLICT DO NOTHING`,
      [],
    ],
    [
      'media_documents',
      'download: the live record',
      `SELECT * FROM documents WHERE id = $1 AND deleted_at IS NULL`,
      [documentId],
    ],
    [
      'media_documents',
      "sweeper's pick",
      `SELECT id FROM documents WHERE deleted_at IS NOT NULL AND file_removed_at IS NULL ORDER BY deleted_at LIMIT 100`,
      [],
    ],
    // What every app runs in the background beside the requests.
    ...[
      'media_acl',
      'media_content',
      'media_documents',
      'media_chat_notifications',
      'media_assignment',
    ].flatMap((database) => [
      [
        database,
        "audit sealer's pick",
        `SELECT id FROM audit_entries WHERE seq IS NULL ORDER BY recorded LIMIT 500`,
        [],
      ],
      [
        database,
        "audit chain's head",
        `SELECT seq, hash FROM audit_entries WHERE seq IS NOT NULL AND hash IS NOT NULL ORDER BY seq DESC LIMIT 1`,
        [],
      ],
      [
        database,
        "audit publisher's pick",
        `SELECT e.* FROM audit_entries e, audit_published p
            WHERE e.seq IS NOT NULL AND e.seq > p.seq ORDER BY e.seq LIMIT 200`,
        [],
      ],
      [
        database,
        "outbox relay's pick",
        `SELECT id FROM outbox WHERE published_at IS NULL AND (claimed_until IS NULL OR claimed_until < now())
            ORDER BY created_at, id LIMIT 100 FOR UPDATE SKIP LOCKED`,
        [],
      ],
    ]),
  ];
  const out = [];
  for (const [database, name, sql, params] of cases) {
    const result = await withClient(embeddedDatabaseUrl(dataDir, database), async (db) => {
      await db.query('BEGIN');
      try {
        const { rows } = await db.query(`EXPLAIN (ANALYZE, BUFFERS, FORMAT JSON) ${sql}`, params);
        return rows[0]['QUERY PLAN'][0];
      } catch (error) {
        return { error: error.message };
      } finally {
        await db.query('ROLLBACK');
      }
    });
    if (result.error) {
      out.push({ database, statement: name, error: result.error });
      continue;
    }
    const nodes = [];
    const walk = (node) => {
      nodes.push(
        `${node['Node Type']}${node['Relation Name'] ? ` on ${node['Relation Name']}` : ''}${node['Index Name'] ? ` using ${node['Index Name']}` : ''}`,
      );
      for (const child of node.Plans ?? []) walk(child);
    };
    walk(result.Plan);
    out.push({
      database,
      statement: name,
      execution_ms: round2(result['Execution Time']),
      shared_buffers: (result.Plan['Shared Hit Blocks'] ?? 0) + (result.Plan['Shared Read Blocks'] ?? 0),
      reads_a_table_whole: nodes.some((n) => n.startsWith('Seq Scan')),
      plan: nodes.join(' > '),
    });
  }
  return out;
}

/** Slots of the schedule still naming a deleted document, once the deletions have been applied (up to 60 s). */
async function referencesLeft(root, scheduleId, deletedIds) {
  let left = [];
  for (let i = 0; i < 60; i++) {
    const slots = await scheduleSlots(root, scheduleId);
    left = slots.flatMap((s) =>
      s.assets.filter((a) => deletedIds.has(a.document_id)).map((a) => a.document_id),
    );
    if (left.length === 0) break;
    await sleep(1000);
  }
  return left;
}

const spread = (xs) => {
  const sorted = xs.filter((x) => x !== undefined).sort((a, b) => a - b);
  if (!sorted.length) return undefined;
  return { min: sorted[0], median: sorted[Math.floor(sorted.length / 2)], max: sorted[sorted.length - 1] };
};

async function main() {
  const extra = {};
  if (HEAP_SNAPSHOTS.length) {
    mkdirSync(SNAPSHOT_DIR, { recursive: true });
    // Node's own: SIGUSR2 writes a snapshot of the runner's heap to the directory.
    extra.NODE_OPTIONS =
      `${process.env.NODE_OPTIONS ?? ''} --heapsnapshot-signal=SIGUSR2 --diagnostic-dir=${SNAPSHOT_DIR}`.trim();
  }
  const { env, dataDir, remove } = await npmStartEnv('bench-soak-', admin, extra);
  const base = `http://127.0.0.1:${env.GATEWAY_PORT}`;
  const metricsUrl = `http://127.0.0.1:${env.GATEWAY_METRICS_PORT}/metrics`;
  let run;
  try {
    run = await npmStart(env);
    log(`npm start ready in ${run.seconds} s (runner pid ${run.runner}, data ${dataDir}); setting up`);
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
      deletedIds: new Set(),
    };
    const ws = sockets(base, setup.root, rec.record);
    await ws.start();
    // The administrator's token, renewed well before it expires (the sockets reconnect with it).
    const renew = setInterval(() => setup.root.refresh(), 5 * 60_000);

    const samples = [];
    const metricNames = [
      'nodejs_heap_size_used_bytes',
      'nodejs_heap_size_total_bytes',
      'nodejs_external_memory_bytes',
      'nodejs_eventloop_lag_p99_seconds',
      'nodejs_active_handles_total',
    ];
    let phase = 'steady';
    // The used heap at one moment is wherever the GC's saw-tooth happens to be (here ±8 MiB
    // between two samples), too noisy for a slope of a few MiB an hour over 20 minutes. What the
    // heap keeps is its floor: the least of readings FLOOR_S apart over each interval, taken
    // right after a collection.
    let floor = Number.POSITIVE_INFINITY;
    const readFloor = async () => {
      const { nodejs_heap_size_used_bytes: used } = await scrape(metricsUrl, [
        'nodejs_heap_size_used_bytes',
      ]).catch(() => ({}));
      if (used !== undefined) floor = Math.min(floor, used);
    };
    let lastSampleAt = performance.now();
    const sample = async () => {
      const metrics = await scrape(metricsUrl, metricNames).catch(() => ({}));
      // A sample right after another (the one that ends a phase) has too few readings for a floor.
      const fullInterval = performance.now() - lastSampleAt >= (SAMPLE_S * 1000) / 2;
      lastSampleAt = performance.now();
      const heapFloor = fullInterval
        ? Math.min(floor, metrics.nodejs_heap_size_used_bytes ?? Number.POSITIVE_INFINITY)
        : Number.POSITIVE_INFINITY;
      floor = Number.POSITIVE_INFINITY;
      const entries = rec.takeInterval();
      const heap = metrics.nodejs_heap_size_used_bytes;
      const lag = metrics.nodejs_eventloop_lag_p99_seconds;
      const mib = (bytes) => (bytes === undefined ? undefined : round2(bytes / MIB));
      const resident = residentMib(run.runner);
      const s = {
        t_s: round2((performance.now() - start) / 1000),
        phase,
        load_average_1m: round2(loadavg()[0]),
        rss_mib: resident.rss,
        // What the RSS is made of: the process's own pages (V8's heap as committed, which is more
        // than the used heap, external memory such as Buffers, malloc's arenas) and mapped files.
        rss_anon_mib: resident.anon,
        rss_file_mib: resident.file,
        heap_used_mib: mib(heap),
        heap_floor_mib: Number.isFinite(heapFloor) ? mib(heapFloor) : undefined,
        heap_committed_mib: mib(metrics.nodejs_heap_size_total_bytes),
        external_mib: mib(metrics.nodejs_external_memory_bytes),
        event_loop_lag_p99_ms: lag === undefined ? undefined : round2(lag * 1000),
        active_handles: metrics.nodejs_active_handles_total,
        ...latencies(entries),
      };
      samples.push(s);
      log(
        `${s.t_s} s (${phase}, load ${s.load_average_1m}): RSS ${s.rss_mib} MiB (anon ${s.rss_anon_mib}), heap ${s.heap_used_mib} (floor ${s.heap_floor_mib}) of ${s.heap_committed_mib} MiB, external ${s.external_mib} MiB, ${entries.length} requests, p99 ${s.overall?.p99_ms} ms, ${rec.errors.length} errors`,
      );
    };
    await sample();
    const sampler = setInterval(sample, SAMPLE_S * 1000);
    const floorReader = setInterval(readFloor, FLOOR_S * 1000);
    const snapshots = HEAP_SNAPSHOTS.map((at) =>
      setTimeout(() => {
        log(`heap snapshot at ${at} s (into ${SNAPSHOT_DIR})`);
        process.kill(run.runner, 'SIGUSR2');
      }, at * 1000),
    );
    const ops = operations(base, setup, rec.record, checks);
    log(`soak: ${DURATION_S} s at about ${RATE} requests/s, ${SOCKETS} websockets`);
    await load(ops, Date.now() + DURATION_S * 1000, rec.record);
    const steadyEnd = (performance.now() - start) / 1000;
    await sample();
    const steadyErrors = rec.errors.length;
    phase = 'burst';
    log(`burst: ${BURST_S} s at ${BURST_FACTOR}x (${WORKERS * BURST_FACTOR} workers)`);
    await load(ops, Date.now() + BURST_S * 1000, rec.record, {
      workers: WORKERS * BURST_FACTOR,
      rate: RATE * BURST_FACTOR,
    });
    const burstEnd = (performance.now() - start) / 1000;
    clearInterval(sampler);
    clearInterval(floorReader);
    clearInterval(renew);
    for (const timer of snapshots) clearTimeout(timer);
    await sample();
    // The last messages' deliveries are due DELIVERY_GRACE_MS after their answers.
    await sleep(DELIVERY_GRACE_MS + 1000);
    const seen = await ws.stop();
    const delivered = deliveries(checks.messages, seen);

    const between = (from, to) => rec.all.filter((e) => e.t >= from && e.t < to);
    const p99After = latencies(between(WARMUP_S, WARMUP_S + WINDOW_S));
    const p99End = latencies(between(steadyEnd - WINDOW_S, steadyEnd));
    const steadySamples = samples.filter((s) => s.phase === 'steady');
    const window = steadySamples.filter((s) => s.t_s >= steadyEnd - SLOPE_S);
    const slope = (key) =>
      slopePerHour(window.filter((s) => s[key] !== undefined).map((s) => [s.t_s, s[key]]));
    const steadyRequests = between(0, steadyEnd).length;
    const burst = between(steadyEnd, burstEnd);
    // How each operation's p99 moved from after the warm-up to the end of the steady phase.
    const drift = Object.fromEntries(
      Object.entries(p99End.by_operation).map(([op, end]) => {
        const after = p99After.by_operation[op]?.p99_ms;
        return [
          op,
          {
            after_warmup_ms: after,
            at_end_ms: end.p99_ms,
            ratio: after ? round2(end.p99_ms / after) : undefined,
          },
        ];
      }),
    );

    log('integrity and database checks');
    const referenced = await referencesLeft(setup.root, setup.scheduleId, checks.deletedIds).catch(
      (error) => {
        rec.record('references check', 0, error.message);
        return undefined;
      },
    );
    const lastDeleted = [...checks.deletedIds].at(-1);
    const database = {
      tables: await tableGrowth(dataDir).catch((error) => ({ error: error.message })),
      plans: await explainPaths(dataDir, {
        slotId: setup.slotIds[0],
        documentId: lastDeleted ?? randomUUID(),
        userId: setup.users[0].id,
      }).catch((error) => ({ error: error.message })),
    };

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
        burst_s: BURST_S,
        burst_factor: BURST_FACTOR,
        slots: SLOTS,
        heap_snapshots_at_s: HEAP_SNAPSHOTS.length ? HEAP_SNAPSHOTS : undefined,
      },
      measured_at: new Date().toISOString(),
      node: process.version,
      load_average: {
        one_minute_over_the_steady_phase: spread(steadySamples.map((s) => s.load_average_1m)),
        one_minute_over_the_burst: spread(
          samples.filter((s) => s.phase === 'burst').map((s) => s.load_average_1m),
        ),
        at_end: loadavg().map(round2),
      },
      summary: {
        requests: steadyRequests,
        req_per_s: round2(steadyRequests / steadyEnd),
        errors: steadyErrors,
        rss_max_mib: Math.max(...samples.map((s) => s.rss_mib)),
        rss_max_steady_mib: Math.max(...steadySamples.map((s) => s.rss_mib)),
        rss_slope_mib_per_h: slope('rss_mib'),
        heap_slope_mib_per_h: slope('heap_floor_mib'),
        heap_used_slope_mib_per_h: slope('heap_used_mib'),
        p99_after_warmup_ms: p99After.overall?.p99_ms,
        p99_at_end_ms: p99End.overall?.p99_ms,
        p99_end_vs_warmup:
          p99After.overall && p99End.overall
            ? round2(p99End.overall.p99_ms / p99After.overall.p99_ms)
            : undefined,
      },
      p99_drift_by_operation: drift,
      burst: {
        seconds: round2(burstEnd - steadyEnd),
        requests: burst.length,
        req_per_s: round2(burst.length / (burstEnd - steadyEnd)),
        errors: rec.errors.length - steadyErrors,
        rss_max_mib: Math.max(...samples.filter((s) => s.t_s >= steadyEnd).map((s) => s.rss_mib)),
        latency: latencies(burst),
      },
      integrity: {
        websocket_deliveries: delivered,
        idempotent_retries: checks.retries,
        idempotent_retry_duplicates: checks.retryDuplicates,
        claim_races: checks.claimRaces,
        claim_races_without_one_winner: checks.claimRacesWithoutOneWinner,
        documents_deleted: checks.documentsDeleted,
        documents_still_there_after_delete: checks.documentsStillThere,
        documents_still_attached_after_delete: referenced?.length,
        documents_corrupted: checks.documentsCorrupted,
      },
      latency: latencies(between(0, steadyEnd)),
      database,
      first_errors: rec.errors.slice(0, 20),
      samples,
    });
  } finally {
    await run?.stop();
    if (KEEP_DATA) log(`data directory kept: ${dataDir}`);
    else remove();
  }
}

main().catch((error) => {
  log(error?.stack ?? String(error));
  process.exitCode = 1;
});
