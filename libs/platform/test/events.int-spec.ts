/**
 * Event delivery over JetStream (docs/api/contract.md §5): one durable consumer per handler, poison and
 * malformed messages dead-lettered instead of redelivered for ever, the stream's subjects kept
 * as a union across versions with explicit limits, and outbox/processed_events pruning.
 */
import { randomUUID } from 'node:crypto';
import { jetstream, jetstreamManager } from '@nats-io/jetstream';
import { connect, type NatsConnection } from '@nats-io/transport-node';
import { ChatEvents, EVENT_SUBJECTS, EVENTS_STREAM, type EventEnvelope } from '@media/contracts';
import { eventually, queryDatabase, testEnv } from '@media/testing';
import { DataSource } from 'typeorm';
import { Outbox } from '@media/messaging';
import { bootFixture, type BootedFixture } from './fixture/boot';
import { BatchRecorder } from './fixture/fixture.app';

const FUTURE_SUBJECT = 'future.thing.happened';
const CONSUMER_PREFIX = `t${randomUUID().slice(0, 8)}`;
let fixture: BootedFixture;
let nc: NatsConnection;

function envelope(data: object, id: string = randomUUID()): EventEnvelope {
  return { id, subject: ChatEvents.messageCreated, occurred_at: new Date().toISOString(), data, meta: {} };
}

/** Publishes to the stream; resolves with the message's stream sequence. */
async function publish(event: EventEnvelope | string): Promise<number> {
  const body = typeof event === 'string' ? event : JSON.stringify(event);
  return (await jetstream(nc).publish(ChatEvents.messageCreated, body, { msgID: randomUUID() })).seq;
}

/** The server's view of one of this run's durable consumers (by the handler it feeds). */
async function consumerInfo(handler: string) {
  const jsm = await jetstreamManager(nc);
  for await (const info of jsm.consumers.list(EVENTS_STREAM))
    if (info.name.startsWith(CONSUMER_PREFIX) && info.name.endsWith(handler)) return info;
  throw new Error(`no consumer ${CONSUMER_PREFIX}...${handler}`);
}

beforeAll(async () => {
  nc = await connect({ servers: testEnv.natsUrl });
  // A newer version already added a subject this one does not know (rolling deploy).
  const jsm = await jetstreamManager(nc);
  const current = await jsm.streams.info(EVENTS_STREAM).then(
    (info) => info.config.subjects ?? [],
    () => undefined,
  );
  if (current === undefined) await jsm.streams.add({ name: EVENTS_STREAM, subjects: [FUTURE_SUBJECT] });
  else await jsm.streams.update(EVENTS_STREAM, { subjects: [...new Set([...current, FUTURE_SUBJECT])] });
  fixture = await bootFixture({
    NATS_URL: testEnv.natsUrl,
    EVENTS_CONSUMER_PREFIX: CONSUMER_PREFIX,
    EVENTS_MAX_DELIVER: '3',
    EVENTS_RETRY_DELAY: '100ms',
    EVENTS_REPLICAS: '1',
    EVENTS_DUPLICATE_WINDOW: '90s',
  });
});

afterAll(async () => {
  await fixture?.stop();
  await nc?.close();
});

const processed = (eventId: string) =>
  queryDatabase<{ consumer: string }>(
    fixture.db,
    `SELECT consumer FROM processed_events WHERE event_id = $1 ORDER BY consumer`,
    [eventId],
  );

const deadLetters = (eventId: string) =>
  queryDatabase<{ consumer: string; subject: string; error: string; deliveries: number; payload: string }>(
    fixture.db,
    `SELECT consumer, subject, error, deliveries, payload FROM dead_letters WHERE event_id = $1 ORDER BY consumer`,
    [eventId],
  );

it('gives each handler of one subject its own durable consumer, so each gets every event', async () => {
  const events = Array.from({ length: 6 }, () => envelope({ fixture: randomUUID() }));
  for (const event of events) await publish(event);
  for (const event of events) {
    const rows = await eventually(
      () => processed(event.id),
      (r) => r.length === 3,
      10_000,
    );
    expect(rows.map((r) => r.consumer)).toEqual([
      'fixture-platform:AuditRecorder.audit',
      'fixture-platform:BatchRecorder.many',
      'fixture-platform:ReceiptRecorder.record',
    ]);
  }
  const jsm = await jetstreamManager(nc);
  const names: string[] = [];
  for await (const info of jsm.consumers.list(EVENTS_STREAM)) names.push(info.name);
  const ours = names.filter((n) => n.includes('fixture-platform'));
  expect(ours).toEqual(
    expect.arrayContaining([
      expect.stringMatching(/--chat_message_created--AuditRecorder_audit$/),
      expect.stringMatching(/--chat_message_created--ReceiptRecorder_record$/),
    ]),
  );
});

it('dead-letters an event its handler keeps failing after EVENTS_MAX_DELIVER deliveries, with the error', async () => {
  const event = envelope({ fixture: randomUUID(), poison: 'always' });
  const seq = await publish(event);
  const letters = await eventually(
    () => deadLetters(event.id),
    (r) => r.length > 0,
    10_000,
  );
  expect(letters).toEqual([
    {
      consumer: 'fixture-platform:AuditRecorder.audit',
      subject: ChatEvents.messageCreated,
      error: 'poisoned: always',
      deliveries: 3,
      payload: JSON.stringify(event),
    },
  ]);
  // The other handler applied it as usual; the failing one did not record it as processed.
  expect((await processed(event.id)).map((r) => r.consumer)).toEqual([
    'fixture-platform:BatchRecorder.many',
    'fixture-platform:ReceiptRecorder.record',
  ]);
  // And it is not redelivered any more: the server counts it as acknowledged (terminated).
  const audit = await eventually(
    () => consumerInfo('AuditRecorder_audit'),
    (info) => info.ack_floor.stream_seq >= seq,
    10_000,
  );
  expect(audit.ack_floor.stream_seq).toBeGreaterThanOrEqual(seq);
  expect(await deadLetters(event.id)).toHaveLength(1);
  // The dead letter is counted for the alert.
  const metrics = await (await fetch(`${fixture.base}/metrics`)).text();
  const counted = metrics
    .split('\n')
    .find(
      (line) =>
        line.startsWith('events_dead_lettered_total{') &&
        line.includes(`subject="${ChatEvents.messageCreated}"`),
    );
  expect(Number(counted?.split(' ').pop())).toBeGreaterThanOrEqual(1);
});

/** Holds BatchRecorder until the returned function is called. */
function holdBatches(): () => void {
  let release!: () => void;
  BatchRecorder.gate = new Promise<void>((resolve) => (release = resolve));
  return () => {
    BatchRecorder.gate = undefined;
    release();
  };
}

/** Waits until the BatchRecorder's consumer has been handed at least `count` unacknowledged events. */
const handedOut = (count: number) =>
  eventually(
    () => consumerInfo('BatchRecorder_many'),
    (info) => info.num_ack_pending >= count,
    10_000,
  );

describe('@OnEvents', () => {
  it('applies the events that arrived meanwhile together, each once, a redelivered one not again', async () => {
    const release = holdBatches();
    const first = envelope({ batch: 'together' });
    await publish(first);
    await handedOut(1);
    const rest = Array.from({ length: 20 }, () => envelope({ batch: 'together' }));
    for (const event of rest) await publish(event);
    await handedOut(rest.length + 1);
    release();
    const consumer = 'fixture-platform:BatchRecorder.many';
    for (const event of [first, ...rest])
      await eventually(
        () => processed(event.id),
        (rows) => rows.some((row) => row.consumer === consumer),
        10_000,
      );
    const ours = new Set([first, ...rest].map((event) => event.id));
    const batches = BatchRecorder.batches.filter((batch) => batch.some((id) => ours.has(id)));
    // The first alone (applied at once), then the 20 that came while it was held, together.
    expect(batches).toEqual([[first.id], rest.map((event) => event.id)]);

    // The same event again (another message): recorded as processed, so not applied a second time.
    await jetstream(nc).publish(ChatEvents.messageCreated, JSON.stringify(first), { msgID: randomUUID() });
    const marker = envelope({ batch: 'after' });
    await publish(marker);
    await eventually(
      () => BatchRecorder.batches.flat(),
      (ids) => ids.includes(marker.id),
      10_000,
    );
    expect(BatchRecorder.batches.flat().filter((id) => id === first.id)).toHaveLength(1);
  });

  it('applies the events of a failing batch one at a time: only the failing one is retried and dead-lettered', async () => {
    const release = holdBatches();
    const opener = envelope({ batch: 'opener' });
    await publish(opener);
    await handedOut(1);
    const good = Array.from({ length: 4 }, () => envelope({ batch: 'survivor' }));
    const poison = envelope({ batch: 'poison', poison: 'batch' });
    for (const event of [good[0], good[1], poison, good[2], good[3]]) await publish(event);
    await handedOut(6);
    release();
    const letters = await eventually(
      async () => (await deadLetters(poison.id)).filter((l) => l.consumer.endsWith('BatchRecorder.many')),
      (rows) => rows.length > 0,
      15_000,
    );
    expect(letters).toMatchObject([{ error: 'poisoned: batch', deliveries: 3 }]);
    const applied = BatchRecorder.batches.flat();
    for (const event of good) expect(applied.filter((id) => id === event.id)).toHaveLength(1);
    expect(applied).not.toContain(poison.id);
  });
});

it('dead-letters at once an event whose id is not a uuid, in every handler, without retrying', async () => {
  // Unique per run: the stream keeps earlier runs' messages, and new consumers read them too.
  const badId = `not-a-uuid-${randomUUID().slice(0, 8)}`;
  await publish(envelope({ fixture: 'x' }, badId));
  const letters = await eventually(
    () => deadLetters(badId),
    (r) => r.length === 3,
    10_000,
  );
  expect(letters.map((l) => [l.consumer, l.deliveries])).toEqual([
    ['fixture-platform:AuditRecorder.audit', 1],
    ['fixture-platform:BatchRecorder.many', 1],
    ['fixture-platform:ReceiptRecorder.record', 1],
  ]);
  expect(letters[0].error).toMatch(/not a uuid/);
});

it('dead-letters a message that is not JSON', async () => {
  const marker = `garbage-${randomUUID()}`;
  await publish(`{${marker}`);
  const letters = await eventually(
    () =>
      queryDatabase<{ error: string }>(fixture.db, `SELECT error FROM dead_letters WHERE payload = $1`, [
        `{${marker}`,
      ]),
    (r) => r.length === 3,
    10_000,
  );
  expect(letters.map((l) => l.error)).toEqual(Array(3).fill('the message is not JSON'));
});

it("keeps a newer version's subjects in the stream and sets its limits explicitly", async () => {
  const info = await (await jetstreamManager(nc)).streams.info(EVENTS_STREAM);
  expect(info.config.subjects).toEqual(expect.arrayContaining([FUTURE_SUBJECT, ...EVENT_SUBJECTS]));
  expect(info.config.duplicate_window).toBe(90 * 1e9);
  expect(info.config.max_age).toBe(7 * 86_400 * 1e9);
  expect(info.config.max_bytes).toBe(1024 ** 3);
  expect(info.config.num_replicas).toBe(1);
});

it('prunes published outbox rows and processed events older than EVENTS_RETENTION, and nothing newer', async () => {
  const old = randomUUID();
  const recent = randomUUID();
  await queryDatabase(
    fixture.db,
    `INSERT INTO outbox (id, subject, payload, created_at, published_at) VALUES
       ($1, 'x.y.z', '{}', now() - interval '9 days', now() - interval '8 days 1 minute'),
       ($2, 'x.y.z', '{}', now() - interval '8 days', now() - interval '7 days 23 hours')`,
    [old, recent],
  );
  await queryDatabase(
    fixture.db,
    `INSERT INTO processed_events (event_id, consumer, processed_at) VALUES
       ($1, 'c', now() - interval '8 days 1 minute'), ($2, 'c', now() - interval '7 days 23 hours')`,
    [old, recent],
  );
  expect(await fixture.app.get(Outbox).prune()).toBeGreaterThanOrEqual(2);
  const left = await queryDatabase<{ id: string }>(
    fixture.db,
    `SELECT id FROM outbox WHERE id = ANY($1::uuid[]) UNION ALL
     SELECT event_id FROM processed_events WHERE event_id = ANY($1::uuid[])`,
    [[old, recent]],
  );
  expect(left).toEqual([{ id: recent }, { id: recent }]);
});

it('relays outbox rows without holding a row lock while publishing', async () => {
  const outbox = fixture.app.get(Outbox);
  const id = randomUUID();
  // While the relay publishes, another session can lock the row at once (no lock is held). The
  // probe is in place before the row exists, so the relay's own polling cannot publish it unseen.
  const bus = (outbox as unknown as { bus: { publish: (e: EventEnvelope) => Promise<void> } }).bus;
  const original = bus.publish.bind(bus);
  let lockedMeanwhile: unknown;
  bus.publish = async (event) => {
    if (event.id === id)
      lockedMeanwhile = await queryDatabase(
        fixture.db,
        `SELECT id FROM outbox WHERE id = $1 FOR UPDATE NOWAIT`,
        [id],
      ).catch((error: Error) => error.message);
    return original(event);
  };
  try {
    await queryDatabase(fixture.db, `INSERT INTO outbox (id, subject, payload) VALUES ($1, $2, '{}')`, [
      id,
      ChatEvents.messageCreated,
    ]);
    await eventually(
      async () => {
        await outbox.relay();
        return queryDatabase<{ published: boolean }>(
          fixture.db,
          `SELECT published_at IS NOT NULL AS published FROM outbox WHERE id = $1`,
          [id],
        );
      },
      (rows) => rows[0]?.published === true,
      10_000,
    );
  } finally {
    bus.publish = original;
  }
  expect(lockedMeanwhile).toEqual([{ id }]);
});

describe('over the in-process bus (embedded default)', () => {
  let embedded: BootedFixture;

  beforeAll(async () => {
    embedded = await bootFixture({ NATS_URL: 'inproc', EVENTS_MAX_DELIVER: '3' });
  });

  afterAll(async () => {
    await embedded?.stop();
  });

  it('dead-letters an event its handler keeps failing, and the events after it still flow', async () => {
    const outbox = embedded.app.get(Outbox);
    const poison = randomUUID();
    const after = randomUUID();
    await embedded.app
      .get(DataSource)
      .transaction((manager) =>
        outbox.enqueue(manager, ChatEvents.messageCreated, { fixture: poison, poison: 'always' }),
      );
    await embedded.app
      .get(DataSource)
      .transaction((manager) => outbox.enqueue(manager, ChatEvents.messageCreated, { fixture: after }));
    const letters = await eventually(
      () =>
        queryDatabase<{ consumer: string; error: string; deliveries: number }>(
          embedded.db,
          `SELECT consumer, error, deliveries FROM dead_letters WHERE payload::jsonb -> 'data' ->> 'fixture' = $1`,
          [poison],
        ),
      (rows) => rows.length > 0,
      15_000,
    );
    expect(letters).toEqual([
      { consumer: 'fixture-platform:AuditRecorder.audit', error: 'poisoned: always', deliveries: 3 },
    ]);
    const receipts = await eventually(
      () =>
        queryDatabase<{ fixture: string }>(
          embedded.db,
          `SELECT data->>'fixture' AS fixture FROM fixture_receipts WHERE data->>'fixture' = ANY($1::text[])`,
          [[poison, after]],
        ),
      (rows) => rows.length === 2,
      10_000,
    );
    expect(receipts.map((r) => r.fixture).sort()).toEqual([poison, after].sort());
  });
});
