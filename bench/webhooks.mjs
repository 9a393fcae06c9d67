#!/usr/bin/env node
/**
 * Outbound webhooks (docs/api/webhooks.md), chat-notifications booted from dist as two replicas
 * on their own database, delivering to receivers on this machine:
 *
 *   1. Throughput and latency: EVENTS (default 1,000) events published to JetStream by one
 *      client with up to PUBLISHING (default 16) publishes awaiting their acknowledgement, as an
 *      outbox relay's batch goes out, one endpoint subscribed to all; deliveries per second
 *      (first publish to last delivery), how long publishing took, and the time from an event's
 *      publish (its commit: the outbox relays after the commit) to its delivery, p50/p99.
 *   2. A replica killed midway: EVENTS more events, one replica SIGKILLed once a third arrived;
 *      every event delivered, how many arrived twice (only those the dead replica had in flight).
 *   3. Isolation: a fast endpoint's delivery p95 alone, then beside an endpoint that never
 *      answers (held until WEBHOOK_TIMEOUT), ISOLATION_EVENTS (default 300) events at
 *      ISOLATION_RATE (default 50) per second each time.
 *
 *   npx nx run-many -t build && node bench/webhooks.mjs
 *
 * It seeds its OWN database (BENCH_DATABASE_URL admin connection) and uses NATS_URL or a
 * nats-server of its own. Writes bench/results/webhooks.json.
 */
import { randomBytes, randomUUID } from 'node:crypto';
import { once } from 'node:events';
import { createServer } from 'node:http';
import { createRequire } from 'node:module';
import { loadavg } from 'node:os';
import { jetstream } from '@nats-io/jetstream';
import { connect } from '@nats-io/transport-node';
import { BENCH_TOKEN_TTL, percentiles, serveJwks } from './lib/app-server.mjs';
import { freePort, startProcess, stopProcess, waitReady } from './lib/processes.mjs';
import { benchDatabase, dist, log, machine, withClient, writeResult } from './lib/seed-users.mjs';

const require = createRequire(import.meta.url);
const { generateTestKeys, mintToken } = require(dist('libs/testing/src/tokens.js'));
const { startNats } = require(dist('libs/testing/src/nats-server.js'));
const { eventually } = require(dist('libs/testing/src/poll.js'));

const EVENTS = Number(process.env.EVENTS ?? 1000);
const PUBLISHING = Number(process.env.PUBLISHING ?? 16);
const ISOLATION_EVENTS = Number(process.env.ISOLATION_EVENTS ?? 300);
const ISOLATION_RATE = Number(process.env.ISOLATION_RATE ?? 50);
const SUBJECT = 'chat.message.created';

/** A receiver answering 200 at once (or never, `hang`), recording when each webhook-id arrived. */
async function receiver({ hang = false } = {}) {
  const arrivals = [];
  const server = createServer((req, res) => {
    req.resume();
    req.on('end', () => {
      arrivals.push({ id: String(req.headers['webhook-id']), at: performance.now() });
      if (!hang) res.writeHead(200).end('ok');
    });
  });
  server.listen(0, '127.0.0.1');
  await once(server, 'listening');
  return {
    url: `http://127.0.0.1:${server.address().port}/hook`,
    arrivals,
    stop: () => (server.closeAllConnections(), new Promise((r) => server.close(r))),
  };
}

async function main() {
  const db = benchDatabase('bench_webhooks');
  await db.create();
  const nats = process.env.NATS_URL ? undefined : await startNats();
  const natsUrl = process.env.NATS_URL ?? nats.url;
  const keys = generateTestKeys();
  const jwks = await serveJwks(keys);
  const common = {
    DATABASE_URL: db.url,
    NATS_URL: natsUrl,
    CURSOR_SECRET: randomBytes(32).toString('hex'),
    JWT_JWKS_URL: jwks.url,
    WEBHOOK_SECRETS_KEY: randomBytes(32).toString('hex'),
    WEBHOOKS_ALLOW_HTTP: 'true',
    WEBHOOKS_ALLOW_PRIVATE: 'true',
    WEBHOOK_TIMEOUT: '5s',
    JWT_ACCESS_TTL: BENCH_TOKEN_TTL,
    LOG_LEVEL: 'warn',
  };
  const replicas = [];
  for (let i = 0; i < 2; i++) {
    const port = await freePort();
    const started = startProcess(`webhooks-${i}`, dist('apps/chat-notifications/src/main.js'), {
      ...common,
      PORT: String(port),
      CHAT_NOTIFICATIONS_PORT: String(port),
    });
    const base = `http://127.0.0.1:${port}`;
    await waitReady(`${base}/api/health/ready`, { child: started.child, logFile: started.logFile });
    replicas.push({ ...started, base });
  }
  // Minted once the replicas listen: a token older than a process is refused until acl (not
  // booted here) has told it the token versions.
  const token = mintToken(keys, { permissions: ['webhooks:admin'], expiresIn: 3600 });
  const nc = await connect({ servers: natsUrl });
  const js = jetstream(nc);
  const api = async (method, path, body) => {
    const res = await fetch(`${replicas.at(-1).base}/api/v1/webhooks${path}`, {
      method,
      headers: { authorization: `Bearer ${token}`, 'content-type': 'application/json' },
      body: body ? JSON.stringify(body) : undefined,
    });
    const text = await res.text();
    if (res.status >= 300) throw new Error(`${method} ${path}: ${res.status} ${text}`);
    return text ? JSON.parse(text).data : undefined;
  };
  const publish = async () => {
    const id = randomUUID();
    const at = performance.now();
    const envelope = {
      id,
      subject: SUBJECT,
      occurred_at: new Date().toISOString(),
      data: {
        message_id: id,
        room_id: randomUUID(),
        room_name: 'bench',
        sender: randomUUID(),
        body: 'hello',
        created_at: new Date().toISOString(),
        recipient_ids: [],
      },
      meta: {},
    };
    await js.publish(SUBJECT, JSON.stringify(envelope), { msgID: id });
    return { id, at, acked: performance.now() };
  };
  // Awaiting each acknowledgement before the next publish, publishing alone took 2.5-3.2 s for
  // 1,000 events on the loaded machine: the figure was then the publisher's, not the webhooks'.
  const publishMany = async (count) => {
    const sent = new Array(count);
    let next = 0;
    const lane = async () => {
      while (next < count) {
        const i = next++;
        sent[i] = await publish();
      }
    };
    await Promise.all(Array.from({ length: Math.min(PUBLISHING, count) }, lane));
    return sent;
  };

  // 1. Throughput and commit -> delivery.
  const fast = await receiver();
  const all = await api('POST', '/endpoints', { url: fast.url, event_types: [SUBJECT] });
  const published = await publishMany(EVENTS);
  const firstPublish = Math.min(...published.map((p) => p.at));
  const publishSpan = Math.max(...published.map((p) => p.acked)) - firstPublish;
  await eventually(
    () => new Set(fast.arrivals.map((a) => a.id)).size >= EVENTS,
    (ok) => ok,
    { timeoutMs: 300_000, intervalMs: 20, orThrow: 'phase 1 deliveries' },
  );
  const firstArrival = new Map();
  for (const a of fast.arrivals) if (!firstArrival.has(a.id)) firstArrival.set(a.id, a.at);
  const latencies = published.map((p) => firstArrival.get(p.id) - p.at);
  const span = Math.max(...firstArrival.values()) - firstPublish;
  const throughput = {
    events: EVENTS,
    deliveries_per_s: Math.round((EVENTS / span) * 1000),
    publishing_s: Number((publishSpan / 1000).toFixed(2)),
    publishes_in_flight: PUBLISHING,
    commit_to_delivery_ms: percentiles(latencies),
  };
  log(`throughput: ${JSON.stringify(throughput)}`);

  // 2. A replica killed midway.
  fast.arrivals.length = 0;
  const ids = [];
  for (const sent of await publishMany(EVENTS)) ids.push(sent.id);
  await eventually(
    () => new Set(fast.arrivals.map((a) => a.id)).size >= EVENTS / 3,
    (ok) => ok,
    { timeoutMs: 300_000, intervalMs: 20, orThrow: 'a third' },
  );
  const victim = replicas.shift();
  victim.child.kill('SIGKILL');
  await once(victim.child, 'exit');
  const killedAt = performance.now();
  await eventually(
    () => new Set(fast.arrivals.map((a) => a.id)).size >= EVENTS,
    (ok) => ok,
    { timeoutMs: 300_000, intervalMs: 20, orThrow: 'phase 2 deliveries' },
  );
  const counts = new Map();
  for (const a of fast.arrivals) counts.set(a.id, (counts.get(a.id) ?? 0) + 1);
  const kill = {
    events: EVENTS,
    delivered: ids.filter((id) => counts.has(id)).length,
    delivered_twice: [...counts.values()].filter((n) => n > 1).length,
    last_delivery_after_kill_s: Number(
      ((Math.max(...fast.arrivals.map((a) => a.at)) - killedAt) / 1000).toFixed(1),
    ),
  };
  log(`replica killed: ${JSON.stringify(kill)}`);
  await api('DELETE', `/endpoints/${all.id}`);

  // 3. Isolation: the fast endpoint alone, then beside a hung one.
  const paced = async (receiverOf) => {
    receiverOf.arrivals.length = 0;
    const sent = [];
    const start = performance.now();
    for (let i = 0; i < ISOLATION_EVENTS; i++) {
      const due = start + (i * 1000) / ISOLATION_RATE;
      const wait = due - performance.now();
      if (wait > 0) await new Promise((r) => setTimeout(r, wait));
      sent.push(await publish());
    }
    await eventually(
      () => new Set(receiverOf.arrivals.map((a) => a.id)).size >= ISOLATION_EVENTS,
      (ok) => ok,
      { timeoutMs: 300_000, intervalMs: 20, orThrow: 'isolation' },
    );
    const arrived = new Map();
    for (const a of receiverOf.arrivals) if (!arrived.has(a.id)) arrived.set(a.id, a.at);
    return percentiles(sent.map((s) => arrived.get(s.id) - s.at));
  };
  const alone = await receiver();
  const aloneEndpoint = await api('POST', '/endpoints', { url: alone.url, event_types: [SUBJECT] });
  const fastAlone = await paced(alone);
  const hung = await receiver({ hang: true });
  await api('POST', '/endpoints', { url: hung.url, event_types: [SUBJECT] });
  const fastBesideHung = await paced(alone);
  const isolation = {
    events: ISOLATION_EVENTS,
    rate_per_s: ISOLATION_RATE,
    fast_alone_ms: fastAlone,
    fast_beside_hung_ms: fastBesideHung,
    p95_ratio: Number((fastBesideHung.p95_ms / fastAlone.p95_ms).toFixed(2)),
  };
  log(`isolation: ${JSON.stringify(isolation)} (hung endpoint got ${hung.arrivals.length} requests)`);
  void aloneEndpoint;

  const report = {
    date: new Date().toISOString(),
    machine: await withClient(db.url, (c) => machine(c)),
    replicas: 2,
    load_average_1m: Number(loadavg()[0].toFixed(1)),
    throughput,
    kill,
    isolation,
  };
  await writeResult('webhooks.json', report);
  for (const r of [fast, alone, hung]) await r.stop();
  await nc.close();
  for (const r of replicas) await stopProcess(r.child);
  await jwks.stop();
  await nats?.stop();
  await db.drop();
}

main().catch((error) => {
  log(error?.stack ?? String(error));
  process.exitCode = 1;
});
