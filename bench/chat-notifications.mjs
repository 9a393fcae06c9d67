#!/usr/bin/env node
/**
 * chat-notifications under load, against real servers booted from dist:
 *
 *   1. Websocket fan-out: a room of MEMBERS (default 1,000) members, every one connected through the
 *      gateway; one member posts a message through the gateway (HTTP), and the time is taken from
 *      sending the POST until the LAST member's socket has the `chat.message` frame. MESSAGES
 *      (default 200) messages, one at a time, after WARMUP. p50/p95/p99/max, plus the POST's own
 *      latency. Each message also feeds the inbox of every other member (`chat.message.created`
 *      -> notifications -> `notification` pushes), so that work runs alongside, as in production.
 *      Sockets open OPENING (100) at a time; DIRECT_SOCKETS=1 opens them on
 *      chat-notifications itself instead; PROFILE_DIR=<dir> runs chat-notifications under
 *      `--cpu-prof` and prints the fan-out's self time by package and function. Each process's
 *      CPU ms per message (app, gateway, nats, this client) is reported with the times.
 *   2. Room list with unread and mention counts: a user in ROOMS (default 1,000) rooms, each with
 *      2 members and MSGS_PER_ROOM (default 20) messages, half by the other member (a quarter of
 *      those mentioning the user, one in twenty deleted), read markers at random points;
 *      `GET /api/v1/chat/rooms` (page_size 20 and 100, the first page and a page deep in the list
 *      through its `next` links), SEQUENTIAL (default 300) requests each, through the gateway,
 *      with EXPLAIN (ANALYZE, BUFFERS) of the counts statement for a page, and the cost of
 *      `mention_count`: the counts statement against the same statement without it, SEQUENTIAL
 *      runs each on the database.
 *
 *   npx nx run-many -t build && node bench/chat-notifications.mjs
 *
 * It seeds its OWN database (BENCH_DATABASE_URL admin connection, default
 * postgres://postgres@127.0.0.1:5432/postgres) and starts its own nats-server on a free port;
 * tokens are minted with a key whose JWKS this script serves. Writes bench/results/chat-notifications.json.
 */
import { randomBytes, randomUUID } from 'node:crypto';
import { once } from 'node:events';
import { readdirSync, readFileSync, statSync } from 'node:fs';
import { createRequire } from 'node:module';
import { loadavg } from 'node:os';
import { join } from 'node:path';
import { Client as HttpClient } from 'undici';
import { BENCH_TOKEN_TTL, serveJwks } from './lib/app-server.mjs';
import { monotonicMicros, selfTime } from './lib/cpu-profile.mjs';
import { startProcess, waitReady } from './lib/processes.mjs';
import { benchDatabase, dist, log, machine, seconds, withClient, writeResult } from './lib/seed-users.mjs';

const require = createRequire(import.meta.url);
const WebSocket = require('ws');
const { generateTestKeys, mintToken } = require(dist('libs/testing/src/tokens.js'));
const { freePort } = require(dist('libs/testing/src/ports.js'));
const { startNats } = require(dist('libs/testing/src/nats-server.js'));
const { ROOM_COUNTS_SQL } = require(dist('apps/chat-notifications/src/chat/room-counts.sql.js'));

const MEMBERS = Number(process.env.MEMBERS ?? 1000);
const MESSAGES = Number(process.env.MESSAGES ?? 200);
const WARMUP = Number(process.env.WARMUP ?? 20);
const ROOMS = Number(process.env.ROOMS ?? 1000);
const MSGS_PER_ROOM = Number(process.env.MSGS_PER_ROOM ?? 20);
const SEQUENTIAL = Number(process.env.SEQUENTIAL ?? 300);
/** Websocket handshakes in flight at once while the room's sockets open. */
const OPENING = Number(process.env.OPENING ?? 100);
/** When set, chat-notifications runs under `node --cpu-prof` into this directory and the fan-out's self time is reported. */
const PROFILE_DIR = process.env.PROFILE_DIR;
/** DIRECT_SOCKETS=1: the sockets connect to chat-notifications itself (the POST still goes through the gateway). */
const DIRECT_SOCKETS = process.env.DIRECT_SOCKETS === '1';

const percentile = (values, p) => {
  const sorted = [...values].sort((a, b) => a - b);
  return sorted[Math.min(sorted.length - 1, Math.floor((p / 100) * sorted.length))];
};
const ms = (v) => Math.round(v * 100) / 100;
const summary = (values) => ({
  n: values.length,
  p50_ms: ms(percentile(values, 50)),
  p95_ms: ms(percentile(values, 95)),
  p99_ms: ms(percentile(values, 99)),
  max_ms: ms(Math.max(...values)),
});

/** Starts a dist entry of ours and waits for it; its stop() runs first at the end. */
async function startReady(name, entry, env, readyUrl, nodeArgs = []) {
  const { child, logFile, stop } = startProcess(`chat-bench-${name}`, entry, env, { nodeArgs });
  stops.unshift(stop);
  pids[name] = child.pid;
  await waitReady(readyUrl, { child, logFile, timeoutMs: 90_000 });
}

const database = benchDatabase('bench_chat');
const fanoutWindow = { from: 0, to: Infinity };
/** The processes whose CPU time over the fan-out is reported, by name. */
const pids = {};

/** CPU seconds (user + system) each of `pids` (and this process) used so far; Linux /proc only. */
function cpuSeconds() {
  const ticks = (pid) => {
    try {
      const fields = readFileSync(`/proc/${pid}/stat`, 'utf8').split(') ')[1].split(' ');
      return (Number(fields[11]) + Number(fields[12])) / 100;
    } catch {
      return NaN;
    }
  };
  const own = process.cpuUsage();
  return {
    ...Object.fromEntries(Object.entries(pids).map(([name, pid]) => [name, ticks(pid)])),
    bench_client: (own.user + own.system) / 1e6,
  };
}
const stops = [];

/** A nats-server of our own, so nothing else's subjects or consumers mix with ours. */
async function startOwnNats() {
  const nats = await startNats();
  pids.nats = nats.pid;
  stops.push(nats.stop);
  return nats.url;
}

/** The JWKS acl would publish (for our key), chat-notifications and the gateway; the gateway's base URL. */
async function startStack(natsUrl, keys) {
  const jwks = await serveJwks(keys);
  stops.push(jwks.stop);
  const appPort = await freePort();
  const gatewayPort = await freePort();
  const common = {
    NATS_URL: natsUrl,
    CURSOR_SECRET: randomBytes(32).toString('hex'),
    JWT_JWKS_URL: jwks.url,
    JWT_ACCESS_TTL: BENCH_TOKEN_TTL,
    LOG_LEVEL: 'warn',
  };
  await startReady(
    'app',
    dist('apps/chat-notifications/src/main.js'),
    { ...common, DATABASE_URL: database.url, CHAT_NOTIFICATIONS_PORT: String(appPort) },
    `http://127.0.0.1:${appPort}/api/health/ready`,
    PROFILE_DIR ? ['--cpu-prof', `--cpu-prof-dir=${PROFILE_DIR}`] : [],
  );
  await startReady(
    'gateway',
    dist('apps/gateway/src/main.js'),
    {
      ...common,
      GATEWAY_PORT: String(gatewayPort),
      GATEWAY_METRICS_PORT: '0',
      CHAT_NOTIFICATIONS_URL: `http://127.0.0.1:${appPort}`,
      RATE_LIMIT_PER_MINUTE: '0',
    },
    `http://127.0.0.1:${gatewayPort}/health/live`,
  );
  log(`chat-notifications :${appPort}, gateway :${gatewayPort}, nats ${natsUrl}, db ${database.name}`);
  return { gateway: `http://127.0.0.1:${gatewayPort}`, app: `http://127.0.0.1:${appPort}` };
}

/** A room of MEMBERS members, each with a socket open through the gateway, and their tokens. */
async function openRoom(db, { gateway, app }, keys) {
  const socketBase = DIRECT_SOCKETS ? app : gateway;
  const members = Array.from({ length: MEMBERS }, () => randomUUID());
  const roomId = randomUUID();
  await db.query(
    `INSERT INTO chat_rooms (id, name, room_type, group_id, created_by) VALUES ($1, 'bench', 'GROUP', 'bench', $2)`,
    [roomId, members[0]],
  );
  await db.query(
    `INSERT INTO chat_room_members (room_id, user_id, role)
     SELECT $1, u, CASE WHEN ord = 1 THEN 'ADMIN' ELSE 'MEMBER' END FROM unnest($2::uuid[]) WITH ORDINALITY AS x (u, ord)`,
    [roomId, members],
  );
  // An hour, as every bench token: the websocket upgrade checks it against JWT_ACCESS_TTL too.
  const tokens = members.map((sub) => mintToken(keys, { sub, expiresIn: 3600 }));
  // OPENING handshakes at a time: a thousand at once is a reconnect storm, not what is measured here.
  const sockets = [];
  for (let i = 0; i < tokens.length; i += OPENING) {
    const batch = tokens.slice(i, i + OPENING).map(async (token) => {
      const socket = new WebSocket(`${socketBase.replace('http', 'ws')}/api/v1/ws`, {
        headers: { authorization: `Bearer ${token}` },
      });
      await once(socket, 'open');
      return socket;
    });
    sockets.push(...(await Promise.all(batch)));
  }
  log(
    `${sockets.length} sockets open ${DIRECT_SOCKETS ? 'on chat-notifications directly' : 'through the gateway'}`,
  );
  return { roomId, tokens, sockets };
}

/** Posts one message as the room's first member; the times until the POST's answer and the last socket's frame. */
async function postOne(http, { roomId, tokens, sockets }, i) {
  const body = `message ${i}`;
  let remaining = MEMBERS;
  let first;
  let done;
  const allReceived = new Promise((r) => (done = r));
  // Every socket also gets the `notification` pushes of earlier messages: only a frame holding
  // this body is decoded, so the bench's own single thread stays out of the figure at 1,000.
  const marker = Buffer.from(`"body":${JSON.stringify(body)}`);
  const handlers = sockets.map((socket) => {
    const onMessage = (raw) => {
      if (!raw.includes(marker)) return;
      const frame = JSON.parse(raw.toString());
      if (frame.event === 'chat.message' && frame.data.body === body) {
        socket.off('message', onMessage);
        first ??= performance.now();
        if (--remaining === 0) done(performance.now());
      }
    };
    socket.on('message', onMessage);
    return onMessage;
  });
  const started = performance.now();
  const res = await http.request({
    method: 'POST',
    path: `/api/v1/chat/rooms/${roomId}/messages`,
    headers: { authorization: `Bearer ${tokens[0]}`, 'content-type': 'application/json' },
    body: JSON.stringify({ body }),
  });
  await res.body.arrayBuffer();
  const answered = performance.now();
  if (res.statusCode !== 201) throw new Error(`post answered ${res.statusCode}`);
  const last = await Promise.race([
    allReceived,
    new Promise((_, reject) => setTimeout(() => reject(new Error('fan-out timeout')), 30_000)),
  ]);
  handlers.length = 0;
  return { fanout: last - started, first: first - started, post: answered - started };
}

/** 1. Websocket fan-out: WARMUP then MESSAGES posts, one at a time, each until every member has it. */
async function measureFanout(http, room) {
  for (let i = 0; i < WARMUP; i++) await postOne(http, room, `w${i}`);
  fanoutWindow.from = monotonicMicros();
  const cpuBefore = cpuSeconds();
  const wallBefore = performance.now();
  const fanout = [];
  const firsts = [];
  const posts = [];
  for (let i = 0; i < MESSAGES; i++) {
    const t = await postOne(http, room, i);
    fanout.push(t.fanout);
    firsts.push(t.first);
    posts.push(t.post);
  }
  fanoutWindow.to = monotonicMicros();
  const cpuAfter = cpuSeconds();
  const wall = (performance.now() - wallBefore) / 1000;
  const result = {
    description: `POST a message through the gateway until all ${MEMBERS} members' sockets (${DIRECT_SOCKETS ? 'on chat-notifications directly' : 'through the gateway'}) have it`,
    until_last_member: summary(fanout),
    until_first_member: summary(firsts),
    post_response: summary(posts),
    // Who used the two cores meanwhile: CPU ms per message of each process of the bench.
    cpu_ms_per_message: Object.fromEntries(
      Object.keys(cpuAfter).map((k) => [k, ms(((cpuAfter[k] - cpuBefore[k]) * 1000) / MESSAGES)]),
    ),
    wall_ms_per_message: ms((wall * 1000) / MESSAGES),
  };
  log(`fan-out to ${MEMBERS}: ${JSON.stringify(result.until_last_member)}`);
  log(`CPU ms per message: ${JSON.stringify(result.cpu_ms_per_message)}, wall ${result.wall_ms_per_message}`);
  log(
    `first member: ${JSON.stringify(result.until_first_member)}, POST: ${JSON.stringify(result.post_response)}`,
  );
  for (const socket of room.sockets) socket.terminate();
  return result;
}

/** 2's seed: `me` in ROOMS rooms with `other`, MSGS_PER_ROOM messages each, mentions and tombstones. */
async function seedRoomList(db, me, other) {
  const t = performance.now();
  await db.query('BEGIN');
  await db.query(
    `INSERT INTO chat_rooms (id, name, room_type, group_id, created_by, created_at, updated_at)
     SELECT gen_random_uuid(), 'room ' || g, 'GROUP', 'bench', $1,
            now() - (g || ' minutes')::interval, now() - (g || ' minutes')::interval
       FROM generate_series(1, $2::int) AS g`,
    [me, ROOMS],
  );
  await db.query(
    `INSERT INTO chat_room_members (room_id, user_id, role, last_read_at)
     SELECT r.id, u.id, u.role, CASE WHEN random() < 0.7 THEN now() - random() * interval '30 minutes' END
       FROM chat_rooms r CROSS JOIN (VALUES ($1::uuid, 'ADMIN'), ($2::uuid, 'MEMBER')) AS u (id, role)
      WHERE r.group_id = 'bench' AND r.name LIKE 'room %'`,
    [me, other],
  );
  // Every fourth message of the other member mentions me; one in twenty is deleted (a tombstone).
  await db.query(
    `INSERT INTO chat_messages (room_id, sender, body, mentions, created_at)
     SELECT r.id, CASE WHEN m % 2 = 0 THEN $1::uuid ELSE $2::uuid END, 'm' || m,
            CASE WHEN m % 4 = 1 THEN ARRAY[$1::uuid] ELSE '{}' END, now() - random() * interval '1 hour'
       FROM chat_rooms r CROSS JOIN generate_series(1, $3::int) AS m
      WHERE r.name LIKE 'room %'`,
    [me, other, MSGS_PER_ROOM],
  );
  await db.query(
    `UPDATE chat_messages SET body = NULL, deleted_at = created_at + interval '1 minute'
      WHERE body ~ '^m[0-9]+$' AND substring(body FROM 2)::int % 20 = 7`,
  );
  await db.query(
    `INSERT INTO chat_mentions (user_id, room_id, created_at, message_id)
     SELECT $1, room_id, created_at, id FROM chat_messages
      WHERE $1 = ANY(mentions) AND deleted_at IS NULL AND sender <> $1`,
    [me],
  );
  await db.query('COMMIT');
  await db.query('VACUUM ANALYZE chat_rooms');
  await db.query('VACUUM ANALYZE chat_room_members');
  await db.query('VACUUM ANALYZE chat_messages');
  await db.query('VACUUM ANALYZE chat_mentions');
  const mentionRows = (await db.query('SELECT count(*)::int AS n FROM chat_mentions')).rows[0].n;
  return {
    rooms: ROOMS,
    messages: ROOMS * MSGS_PER_ROOM,
    mentions_of_the_user: mentionRows,
    seconds: seconds(t),
  };
}

/** A GET through the gateway as `token`: its time and its JSON body (anything but 200 throws). */
const getter = (http, token) => async (path) => {
  const started = performance.now();
  const res = await http.request({
    method: 'GET',
    path,
    headers: { authorization: `Bearer ${token}` },
  });
  const body = await res.body.json();
  if (res.statusCode !== 200) throw new Error(`${path}: ${res.statusCode} ${JSON.stringify(body)}`);
  return { ms: performance.now() - started, body };
};

/** The room list's cases: first pages of 20 and 100, and a page of 20 reached by walking `next` half way. */
async function roomListCases(get) {
  let deepPath = '/api/v1/chat/rooms?page_size=20';
  for (let i = 0; i < Math.floor(ROOMS / 40); i++) {
    const next = (await get(deepPath)).body.data.next;
    if (!next) break;
    const url = new URL(next);
    deepPath = `${url.pathname}${url.search}`;
  }
  return {
    first_page_20: '/api/v1/chat/rooms?page_size=20',
    first_page_100: '/api/v1/chat/rooms?page_size=100',
    middle_page_20: deepPath,
  };
}

/** The counts the API shows on the first page, recomputed the naive way from the messages themselves. */
async function checkCounts(db, me, get, cases) {
  const checkPage = (await get(cases.first_page_20)).body.data.results;
  const expected = await db.query(
    `SELECT m.room_id,
            count(x.id) FILTER (WHERE x.sender <> m.user_id)::text AS unread,
            count(x.id) FILTER (WHERE x.sender <> m.user_id AND m.user_id = ANY(x.mentions))::text AS mentions
       FROM chat_room_members m
       LEFT JOIN chat_messages x ON x.room_id = m.room_id AND x.deleted_at IS NULL
        AND x.created_at > COALESCE(m.last_read_at, '-infinity')
      WHERE m.user_id = $1 AND m.room_id = ANY($2::uuid[])
      GROUP BY m.room_id`,
    [me, checkPage.map((r) => r.id)],
  );
  const counts = new Map(expected.rows.map((r) => [r.room_id, r]));
  for (const room of checkPage) {
    if (counts.get(room.id).unread !== room.unread_count) throw new Error('unread count mismatch');
    if (counts.get(room.id).mentions !== room.mention_count) throw new Error('mention count mismatch');
  }
  if (!checkPage.some((r) => r.mention_count !== '0')) throw new Error('no mentions on the first page');
}

/** SEQUENTIAL requests of each case, taken in rounds across the cases. */
async function timeRoomList(get, cases) {
  const times = Object.fromEntries(Object.keys(cases).map((k) => [k, []]));
  for (let i = 0; i < SEQUENTIAL; i++) {
    for (const [name, path] of Object.entries(cases)) times[name].push((await get(path)).ms);
  }
  return times;
}

/**
 * The counts statement on the database for the first page of 100: its plan (no table scanned
 * whole), and mention_count's cost against the same statement without the mentions subquery,
 * SEQUENTIAL runs each.
 */
async function measureCountsStatement(db, me, get, cases) {
  const pageIds = (await get(cases.first_page_100)).body.data.results.map((r) => r.id);
  const explain = await db.query(`EXPLAIN (ANALYZE, BUFFERS, FORMAT TEXT) ${ROOM_COUNTS_SQL}`, [
    me,
    pageIds.slice(0, 20),
  ]);
  const plan = explain.rows.map((r) => r['QUERY PLAN']);
  if (plan.some((line) => /Seq Scan on chat_(messages|mentions)/.test(line)))
    throw new Error(`the counts statement scans a table:\n${plan.join('\n')}`);
  const unreadOnlySql = ROOM_COUNTS_SQL.replace(
    /,\s*\(SELECT count\(\*\) FROM chat_mentions[\s\S]*?AS mentions/,
    '',
  );
  if (unreadOnlySql === ROOM_COUNTS_SQL) throw new Error('could not derive the unread-only statement');
  const statementTimes = { with_mention_count: [], unread_count_only: [] };
  for (let i = 0; i < SEQUENTIAL; i++) {
    for (const [name, sql] of [
      ['with_mention_count', ROOM_COUNTS_SQL],
      ['unread_count_only', unreadOnlySql],
    ]) {
      const started = performance.now();
      await db.query(sql, [me, pageIds]);
      statementTimes[name].push(performance.now() - started);
    }
  }
  return { plan, statementTimes };
}

/** 2. Room list with unread and mention counts: seed, check the counts, time the requests and the statement. */
async function measureRoomList(db, http, keys) {
  const me = randomUUID();
  const other = randomUUID();
  const seed = await seedRoomList(db, me, other);
  const get = getter(http, mintToken(keys, { sub: me, expiresIn: 3600 }));
  const cases = await roomListCases(get);
  await checkCounts(db, me, get, cases);
  const times = await timeRoomList(get, cases);
  const { plan, statementTimes } = await measureCountsStatement(db, me, get, cases);
  const roomList = {
    description: `GET /api/v1/chat/rooms through the gateway for a user in ${ROOMS} rooms (${MSGS_PER_ROOM} messages each), unread and mention counts of the page in one statement`,
    ...Object.fromEntries(Object.entries(times).map(([k, v]) => [k, summary(v)])),
    counts_statement_page_100: {
      description:
        'the counts statement alone on the database, a page of 100 rooms, with and without mention_count',
      ...Object.fromEntries(Object.entries(statementTimes).map(([k, v]) => [k, summary(v)])),
    },
    counts_explain: plan,
  };
  log(
    `room list: ${JSON.stringify(Object.fromEntries(Object.keys(cases).map((k) => [k, roomList[k].p50_ms])))}`,
  );
  return { seed, roomList };
}

const loadAverage = () => loadavg().map((v) => Math.round(v * 10) / 10);

async function main() {
  const report = {
    date: new Date().toISOString(),
    parameters: { MEMBERS, MESSAGES, WARMUP, ROOMS, MSGS_PER_ROOM, SEQUENTIAL, DIRECT_SOCKETS },
  };
  await database.create();
  stops.push(() => database.drop());
  const natsUrl = await startOwnNats();
  const keys = generateTestKeys();
  const urls = await startStack(natsUrl, keys);
  const { gateway } = urls;

  await withClient(database.url, async (db) => {
    report.machine = { ...(await machine(db)), load_average_at_start: loadAverage() };
    const room = await openRoom(db, urls, keys);
    const http = new HttpClient(gateway, { pipelining: 1 });
    report.fanout = await measureFanout(http, room);
    const { seed, roomList } = await measureRoomList(db, http, keys);
    report.room_list_seed = seed;
    report.room_list = roomList;
    await http.close();
  });
  report.machine.load_average_at_end = loadAverage();
  await writeResult('chat-notifications.json', report);
}

main()
  .catch((error) => {
    process.exitCode = 1;
    log(error.stack ?? String(error));
  })
  .finally(async () => {
    for (const stop of stops) await stop().catch(() => undefined);
    if (PROFILE_DIR) reportProfile();
  });

/** The fan-out's self time in chat-notifications, by package and by function (PROFILE_DIR). */
function reportProfile() {
  const file = readdirSync(PROFILE_DIR)
    .filter((f) => f.endsWith('.cpuprofile'))
    .map((f) => join(PROFILE_DIR, f))
    .sort((a, b) => statSync(b).mtimeMs - statSync(a).mtimeMs)[0];
  if (!file) return log(`no profile in ${PROFILE_DIR}`);
  const { groups, functions } = selfTime(file, { ...fanoutWindow, top: 30 });
  log(`profile ${file}, fan-out window:`);
  for (const g of groups.slice(0, 15)) log(`  ${g.ms} ms ${g.share}% ${g.group}`);
  for (const f of functions) log(`  ${f.ms} ms ${f.share}% ${f.function}`);
}
