/**
 * Requests and durable events between apps (CONTRACT §5), over real NATS with JetStream and over
 * the in-process bus of the embedded default: same subjects, same errors, same guarantees.
 */
import { randomUUID } from 'node:crypto';
import { jetstream, jetstreamManager } from '@nats-io/jetstream';
import { connect } from '@nats-io/transport-node';
import { ChatEvents, EVENTS_STREAM, type EventEnvelope } from '@media/contracts';
import { call, mintToken, queryDatabase, testEnv } from '@media/testing';
import { durableName, PLATFORM_CONFIG, type PlatformConfig } from '../src';
import { bootFixture, type BootedFixture } from './fixture/boot';
import { fixtureApp } from './fixture/fixture.app';

async function eventually<T>(
  probe: () => Promise<T>,
  ok: (value: T) => boolean,
  timeoutMs = 5_000,
): Promise<T> {
  const deadline = Date.now() + timeoutMs;
  let value = await probe();
  while (!ok(value) && Date.now() < deadline) {
    await new Promise((r) => setTimeout(r, 100));
    value = await probe();
  }
  return value;
}

describe.each([
  ['NATS', testEnv.natsUrl],
  ['the in-process bus', 'inproc'],
])('over %s', (_name, natsUrl) => {
  let fixture: BootedFixture;
  let token: string;

  beforeAll(async () => {
    fixture = await bootFixture({ NATS_URL: natsUrl });
    token = mintToken(fixture.keys, { permissions: ['*'] });
  });

  afterAll(async () => {
    await fixture?.stop();
  });

  it('answers a request and carries the X-Request-Id across the hop', async () => {
    const res = await call(fixture.base, '/api/v1/echo/hello', {
      token,
      headers: { 'x-request-id': 'hop-123' },
    });
    expect(res.status).toBe(200);
    expect(res.body).toEqual({ echoed: 'hello', request_id: 'hop-123' });
  });

  it("brings a responder's domain error back as the same error", async () => {
    const res = await call(fixture.base, '/api/v1/echo/missing', { token });
    expect(res.status).toBe(404);
    expect(res.body).toEqual({ detail: 'word missing not found.', code: 'not_found' });
  });

  it('maps a subject without a responder to 503 upstream_unavailable', async () => {
    const res = await call(fixture.base, '/api/v1/ask/nobody', { token });
    expect(res.status).toBe(503);
    expect(res.body.code).toBe('upstream_unavailable');
  });

  it('delivers an event written through the outbox to its consumer and marks it published', async () => {
    const marker = randomUUID();
    const res = await call(fixture.base, '/api/v1/events', { token, json: { marker } });
    expect(res.status).toBe(201);
    const receipts = await eventually(
      () =>
        queryDatabase<{ event_id: string }>(
          fixture.db,
          `SELECT event_id FROM fixture_receipts WHERE data->>'fixture' = $1`,
          [marker],
        ),
      (rows) => rows.length > 0,
    );
    expect(receipts).toHaveLength(1);
    const outbox = await eventually(
      () =>
        queryDatabase<{ published_at: Date | null }>(
          fixture.db,
          `SELECT published_at FROM outbox WHERE id = $1`,
          [receipts[0].event_id],
        ),
      (rows) => rows[0]?.published_at !== null,
    );
    expect(outbox[0].published_at).not.toBeNull();
  });
});

describe('durable events over JetStream', () => {
  let fixture: BootedFixture;

  beforeAll(async () => {
    fixture = await bootFixture();
  });

  afterAll(async () => {
    await fixture?.stop();
  });

  it('applies a redelivered event only once (consumers are idempotent on the event id)', async () => {
    const marker = randomUUID();
    const event: EventEnvelope = {
      id: randomUUID(),
      subject: ChatEvents.messageCreated,
      occurred_at: new Date().toISOString(),
      data: { fixture: marker },
      meta: {},
    };
    const nc = await connect({ servers: testEnv.natsUrl });
    const js = jetstream(nc);
    // Two publishes with different message ids, so JetStream's own de-duplication does not hide the repeat.
    await js.publish(event.subject, JSON.stringify(event), { msgID: `${event.id}-1` });
    const repeat = await js.publish(event.subject, JSON.stringify(event), { msgID: `${event.id}-2` });
    // The consumer acks a message once it has handled it (or skipped it as already applied): when
    // its ack floor reaches the repeat, both deliveries are done.
    const durable = durableName(
      fixture.app.get<PlatformConfig>(PLATFORM_CONFIG).EVENTS_CONSUMER_PREFIX,
      fixtureApp.name,
      event.subject,
      'ReceiptRecorder.record',
    );
    const jsm = await jetstreamManager(nc);
    const consumer = await eventually(
      () => jsm.consumers.info(EVENTS_STREAM, durable),
      (info) => info.ack_floor.stream_seq >= repeat.seq,
    );
    await nc.close();
    expect(consumer.ack_floor.stream_seq).toBeGreaterThanOrEqual(repeat.seq);
    const rows = await queryDatabase<{ n: number }>(
      fixture.db,
      `SELECT count(*)::int AS n FROM processed_events WHERE event_id = $1 AND consumer = $2`,
      [event.id, 'fixture-platform:ReceiptRecorder.record'],
    );
    expect(rows[0].n).toBe(1);
    const receipts = await queryDatabase<{ n: number }>(
      fixture.db,
      `SELECT count(*)::int AS n FROM fixture_receipts WHERE event_id = $1`,
      [event.id],
    );
    expect(receipts[0].n).toBe(1);
  });
});
