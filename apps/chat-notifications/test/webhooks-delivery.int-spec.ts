/**
 * Webhook delivery (docs/api/webhooks.md) to real receivers on this machine: every delivery is
 * verified with the Standard Webhooks reference library and with svix's verifier; retries on a
 * schedule of seconds with the same webhook-id; 410 disables; failures for WEBHOOK_DISABLE_AFTER
 * disable and tell the admins; replay and retry send the same id again; rotation signs with both
 * secrets during the overlap, then with the new one only. The claim runs with bitmap and sequential
 * scans off (INDEX_SCANS_ONLY), seen from inside its own statement by a trigger noting its settings.
 */
import { randomUUID } from 'node:crypto';
import { createPlanNotes, databaseUrl, eventually } from '@media/testing';
import { Webhook as StandardWebhook } from 'standardwebhooks';
import { Webhook as SvixWebhook } from 'svix';
import { WebhookRetentionService } from '../src/webhooks/webhook-retention.service';
import { Receiver, WebhooksHarness, type Received } from './webhooks-harness';

const admin = randomUUID();
const h = new WebhooksHarness({
  WEBHOOK_TIMEOUT: '2s',
  WEBHOOK_RETRY_SCHEDULE: '1s,2s,1s,1s,1s,1s,1s,1s',
  WEBHOOK_SECRET_OVERLAP: '3s',
  WEBHOOK_DISABLE_AFTER: '4s',
});
const receivers: Receiver[] = [];

async function receiver(): Promise<Receiver> {
  const r = await new Receiver().start();
  receivers.push(r);
  return r;
}

beforeAll(async () => {
  await h.start();
  await h.fakeAclAdmins([admin]);
  await h.boot();
}, 60_000);

afterAll(async () => {
  for (const r of receivers) await r.stop();
  await h.stop();
});

const claimed = (taskId = randomUUID()) => ({
  task_id: taskId,
  status: 'IN_PROGRESS',
  assigned_to: randomUUID(),
});

/** The headers as the verifiers take them. */
const headersOf = (r: Received) => ({
  'webhook-id': String(r.headers['webhook-id']),
  'webhook-timestamp': String(r.headers['webhook-timestamp']),
  'webhook-signature': String(r.headers['webhook-signature']),
});

function verifyBoth(secret: string, r: Received): unknown {
  const fromStandard = new StandardWebhook(secret).verify(r.body, headersOf(r));
  const fromSvix = new SvixWebhook(secret).verify(r.body, headersOf(r));
  expect(fromSvix).toEqual(fromStandard);
  return fromStandard;
}

async function messages(endpointId: string) {
  return (await h.api(`/endpoints/${endpointId}/messages`)).body.data.results as {
    id: string;
    status: string;
    attempts: number;
    last_status_code: number | null;
  }[];
}

describe('webhook delivery', () => {
  it('delivers {type, timestamp, data} signed so that standardwebhooks and svix both accept it, and refuse it tampered', async () => {
    const r = await receiver();
    const { id, secret } = await h.endpoint(r.url, ['assignment.task.claimed']);
    const data = claimed();
    const eventId = await h.publish('assignment.task.claimed', data);
    await h.publish('chat.message.created', { message_id: randomUUID() });
    await eventually(
      async () => r.received.length,
      (n) => n === 1,
      15_000,
    );
    const [delivery] = r.received;
    expect(delivery.headers['content-type']).toBe('application/json');
    expect(delivery.headers['webhook-id']).toBe(eventId);
    expect(Number(delivery.headers['webhook-timestamp'])).toBeCloseTo(Date.now() / 1000, -2);
    expect(String(delivery.headers['webhook-signature'])).toMatch(/^v1,[A-Za-z0-9+/]+=*$/);
    expect(verifyBoth(secret, delivery)).toEqual({
      type: 'assignment.task.claimed',
      timestamp: expect.stringMatching(/^\d{4}-\d\d-\d\dT\d\d:\d\d:\d\d(\.\d+)?Z$/),
      data,
    });

    const tamperedBody = { ...delivery, body: delivery.body.replace('IN_PROGRESS', 'COMPLETED') };
    expect(() => new StandardWebhook(secret).verify(tamperedBody.body, headersOf(tamperedBody))).toThrow();
    expect(() => new SvixWebhook(secret).verify(tamperedBody.body, headersOf(tamperedBody))).toThrow();
    const later = {
      ...headersOf(delivery),
      'webhook-timestamp': String(Number(delivery.headers['webhook-timestamp']) + 1),
    };
    expect(() => new StandardWebhook(secret).verify(delivery.body, later)).toThrow();
    expect(() => new SvixWebhook(secret).verify(delivery.body, later)).toThrow();

    const listed = await eventually(
      () => messages(id),
      (m) => m[0]?.status === 'delivered',
    );
    expect(listed).toEqual([
      expect.objectContaining({ id: eventId, status: 'delivered', attempts: 1, last_status_code: 200 }),
    ]);
    const attempts = await h.api(`/endpoints/${id}/messages/${eventId}/attempts`);
    expect(attempts.body.data).toEqual([
      {
        at: expect.any(String),
        status_code: 200,
        duration_ms: expect.any(Number),
        error: null,
        response_body: 'ok',
      },
    ]);
  });

  it('retries a failing delivery after 1 s then 2 s (WEBHOOK_RETRY_SCHEDULE), with the same webhook-id, keeping 1 KiB of each answer', async () => {
    const r = await receiver();
    r.answer = (_request, index) => (index < 2 ? { status: 500, body: 'x'.repeat(5000) } : { status: 204 });
    const { id, secret } = await h.endpoint(r.url, ['assignment.task.claimed']);
    const eventId = await h.publish('assignment.task.claimed', claimed());
    await eventually(
      async () => r.received.length,
      (n) => n === 3,
      20_000,
    );
    expect(r.ids()).toEqual([eventId, eventId, eventId]);
    for (const delivery of r.received) verifyBoth(secret, delivery);
    // The schedule's waits are lower bounds: each retry comes no sooner than its wait.
    expect(r.received[1].at - r.received[0].at).toBeGreaterThanOrEqual(1000);
    expect(r.received[2].at - r.received[1].at).toBeGreaterThanOrEqual(2000);
    const attempts = await eventually(
      async () =>
        (
          await h.api<{ data: { status_code: number; response_body: string }[] }>(
            `/endpoints/${id}/messages/${eventId}/attempts`,
          )
        ).body.data,
      (a: { status_code: number; response_body: string }[]) => a.length === 3,
    );
    expect(attempts.map((a) => a.status_code)).toEqual([500, 500, 204]);
    expect(attempts[0].response_body).toBe('x'.repeat(1024));
    expect((await messages(id))[0]).toMatchObject({
      status: 'delivered',
      attempts: 3,
      last_status_code: 204,
    });
  });

  it('disables an endpoint at once when it answers 410 and tells the webhook admins; retry and replay are then 409', async () => {
    const r = await receiver();
    r.answer = () => ({ status: 410, body: 'gone' });
    const { id } = await h.endpoint(r.url, ['assignment.task.claimed']);
    const eventId = await h.publish('assignment.task.claimed', claimed());
    const endpoint = await eventually(
      async () => (await h.api(`/endpoints/${id}`)).body.data,
      (e) => e.disabled === true,
      15_000,
    );
    expect(endpoint).toMatchObject({ disabled: true, disabled_reason: 'The endpoint answered 410 Gone' });
    expect(r.received).toHaveLength(1);
    const inbox = await eventually(
      () =>
        h.query<{ title: string; data: { endpoint_id: string } }>(
          `SELECT title, data FROM notifications WHERE recipient_id = $1 AND notification_type = 'webhooks.endpoint.disabled'`,
          [admin],
        ),
      (rows) => rows.some((row) => row.data.endpoint_id === id),
    );
    expect(inbox.find((row) => row.data.endpoint_id === id)?.title).toBe('A webhook endpoint was disabled');

    const retry = await h.api(`/endpoints/${id}/messages/${eventId}/retry`, { method: 'POST' });
    expect(retry.status).toBe(409);
    expect(retry.body).toEqual({ detail: expect.any(String), code: 'endpoint_disabled' });
    const replay = await h.api(`/endpoints/${id}/replay`, {
      method: 'POST',
      json: { since: '2020-01-01T00:00:00Z' },
    });
    expect(replay.status).toBe(409);
  });

  it('disables an endpoint whose every delivery failed for WEBHOOK_DISABLE_AFTER (4 s here)', async () => {
    const r = await receiver();
    r.answer = () => ({ status: 503 });
    const { id } = await h.endpoint(r.url, ['assignment.task.claimed']);
    await h.publish('assignment.task.claimed', claimed());
    const endpoint = await eventually(
      async () => (await h.api(`/endpoints/${id}`)).body.data,
      (e) => e.disabled === true,
      20_000,
    );
    expect(endpoint.disabled_reason).toBe('Every delivery failed for 4 s');
    expect(r.received.length).toBeGreaterThanOrEqual(2);
  });

  it('sends a delivered message again with the same webhook-id on retry and on replay (202)', async () => {
    const r = await receiver();
    const { id } = await h.endpoint(r.url, ['assignment.task.claimed']);
    const since = new Date(Date.now() - 1000).toISOString();
    const eventId = await h.publish('assignment.task.claimed', claimed());
    await eventually(
      async () => r.received.length,
      (n) => n === 1,
      15_000,
    );
    const retry = await h.api(`/endpoints/${id}/messages/${eventId}/retry`, { method: 'POST' });
    expect(retry.status).toBe(202);
    expect(retry.body.data).toMatchObject({ id: eventId, status: 'pending' });
    await eventually(
      async () => r.received.length,
      (n) => n === 2,
      15_000,
    );
    const replay = await h.api(`/endpoints/${id}/replay`, { method: 'POST', json: { since } });
    expect(replay.status).toBe(202);
    expect(replay.body).toEqual({ success: true, message: 'Replay queued', data: { messages: 1 } });
    await eventually(
      async () => r.received.length,
      (n) => n === 3,
      15_000,
    );
    expect(r.ids()).toEqual([eventId, eventId, eventId]);
    expect((await h.api(`/endpoints/${id}/messages/${randomUUID()}/attempts`)).status).toBe(404);
  });

  it('signs with the new and the old secret during WEBHOOK_SECRET_OVERLAP after a rotation, then with the new one only', async () => {
    const r = await receiver();
    const { id, secret: oldSecret } = await h.endpoint(r.url, ['assignment.task.claimed']);
    const rotated = await h.api(`/endpoints/${id}/rotate-secret`, { method: 'POST' });
    const newSecret: string = rotated.body.data.secret;
    await h.publish('assignment.task.claimed', claimed());
    await eventually(
      async () => r.received.length,
      (n) => n === 1,
      15_000,
    );
    const during = r.received[0];
    expect(String(during.headers['webhook-signature']).split(' ')).toHaveLength(2);
    verifyBoth(newSecret, during);
    verifyBoth(oldSecret, during);

    // Past the 3 s overlap, as the database's clock has it (the claim decides by it), a delivery
    // carries one signature, the new secret's.
    await eventually(
      () =>
        h.query<{ over: boolean }>(
          `SELECT previous_secret_until <= clock_timestamp() AS over FROM webhook_endpoints WHERE id = $1`,
          [id],
        ),
      (rows) => rows[0]?.over === true,
      { timeoutMs: 15_000, orThrow: 'the overlap over' },
    );
    await h.publish('assignment.task.claimed', claimed());
    await eventually(
      async () => r.received.length,
      (n) => n === 2,
      { timeoutMs: 15_000, orThrow: 'the delivery after the overlap' },
    );
    const after = r.received[1];
    expect(String(after.headers['webhook-signature']).split(' ')).toHaveLength(1);
    verifyBoth(newSecret, after);
    expect(() => new StandardWebhook(oldSecret).verify(after.body, headersOf(after))).toThrow();
    expect(() => new SvixWebhook(oldSecret).verify(after.body, headersOf(after))).toThrow();
  });
});

describe('webhook event retention', () => {
  it('deletes events older than WEBHOOK_RETENTION with their messages, but not one whose delivery is pending', async () => {
    const r = await receiver();
    const { id } = await h.endpoint(r.url, ['assignment.task.claimed']);
    await h.api(`/endpoints/${id}`, { method: 'PATCH', json: { disabled: true } });
    const [old, pending, recent] = [randomUUID(), randomUUID(), randomUUID()];
    const body = '{"type":"assignment.task.claimed","timestamp":"2020-01-01T00:00:00Z","data":{}}';
    await h.query(
      `INSERT INTO webhook_events (id, type, occurred_at, body) VALUES
         ($1, 'assignment.task.claimed', now() - interval '40 days', $4),
         ($2, 'assignment.task.claimed', now() - interval '40 days', $4),
         ($3, 'assignment.task.claimed', now() - interval '1 day', $4)`,
      [old, pending, recent, body],
    );
    await h.query(
      `INSERT INTO webhook_messages (endpoint_id, event_id, type, status, next_attempt_at) VALUES
         ($1, $2, 'assignment.task.claimed', 'delivered', NULL),
         ($1, $3, 'assignment.task.claimed', 'pending', now())`,
      [id, old, pending],
    );
    await h.apps[0].app.get(WebhookRetentionService).prune();
    const kept = await h.query<{ id: string }>(
      `SELECT id FROM webhook_events WHERE id = ANY($1) ORDER BY id`,
      [[old, pending, recent]],
    );
    expect(kept.map((row) => row.id)).toEqual([pending, recent].sort());
    const messages = await h.query<{ event_id: string }>(
      `SELECT event_id FROM webhook_messages WHERE endpoint_id = $1`,
      [id],
    );
    expect(messages).toEqual([{ event_id: pending }]);
  });
});

describe("the webhook claim's settings", () => {
  it("claims with bitmap and sequential scans off, seen from inside the claim's own statement", async () => {
    // The plan itself: ./claim-plans.int-spec.ts.
    await createPlanNotes(databaseUrl(h.database));
    await h.query(
      `CREATE TRIGGER note_webhook_claims AFTER UPDATE OF lease_owner ON webhook_messages
         FOR EACH ROW WHEN (NEW.lease_owner IS NOT NULL) EXECUTE FUNCTION note_plans('claim')`,
    );
    const r = await receiver();
    await h.endpoint(r.url, ['assignment.task.claimed']);
    await h.publish('assignment.task.claimed', claimed());
    const noted = await eventually(
      () =>
        h.query<{ bitmapscan: string; seqscan: string }>(
          `SELECT DISTINCT bitmapscan, seqscan FROM noted_plans`,
        ),
      (rows) => rows.length > 0,
      { timeoutMs: 15_000, orThrow: 'a noted webhook claim' },
    );
    expect(noted).toEqual([{ bitmapscan: 'off', seqscan: 'off' }]);
  });
});
