/**
 * Requests and durable events between apps (docs/api/contract.md §5), over real NATS with JetStream and over
 * the in-process bus of the embedded default: same subjects, same errors, same guarantees.
 */
import { randomUUID } from 'node:crypto';
import { jetstream } from '@nats-io/jetstream';
import { connect } from '@nats-io/transport-node';
import { ChatEvents, type EventEnvelope } from '@media/contracts';
import { call, eventually, mintToken, queryDatabase, testEnv } from '@media/testing';
import { bootFixture, type BootedFixture } from './fixture/boot';

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
    // A later event: the consumer handles its messages one at a time in stream order, so once
    // this one is applied, both deliveries of the first are behind it.
    const later: EventEnvelope = { ...event, id: randomUUID(), data: { fixture: randomUUID() } };
    const nc = await connect({ servers: testEnv.natsUrl });
    const js = jetstream(nc);
    // Two publishes with different message ids, so JetStream's own de-duplication does not hide the repeat.
    await js.publish(event.subject, JSON.stringify(event), { msgID: `${event.id}-1` });
    await js.publish(event.subject, JSON.stringify(event), { msgID: `${event.id}-2` });
    await js.publish(later.subject, JSON.stringify(later), { msgID: later.id });
    await nc.close();
    const laterReceipts = await eventually(
      () =>
        queryDatabase<{ n: number }>(
          fixture.db,
          `SELECT count(*)::int AS n FROM fixture_receipts WHERE event_id = $1`,
          [later.id],
        ),
      (r) => r[0].n > 0,
    );
    expect(laterReceipts[0].n).toBe(1);
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
