/**
 * One endpoint that never answers (each request held until WEBHOOK_TIMEOUT) beside one that
 * answers at once: the fast one gets every event while the hung one holds only its own share of
 * sends and has not even timed out once. How long the fast one's deliveries take beside the hung
 * one is measured in bench/webhooks.mjs.
 */
import { eventually } from '@media/testing';
import { ENDPOINT_CONCURRENCY } from '../src/webhooks/webhooks.worker';
import { Receiver, WebhooksHarness } from './webhooks-harness';

const h = new WebhooksHarness({ WEBHOOK_TIMEOUT: '20s' });
const fast = new Receiver();
const hung = new Receiver();

beforeAll(async () => {
  await h.start();
  await h.boot();
  await fast.start();
  await hung.start();
  hung.answer = () => 'hang';
}, 60_000);

afterAll(async () => {
  await h.stop();
  await fast.stop();
  await hung.stop();
});

describe('webhook isolation', () => {
  it("delivers every event to a fast endpoint while a hung endpoint's sends are all still waiting", async () => {
    const hungEndpoint = await h.endpoint(hung.url);
    await h.endpoint(fast.url);
    const events = 40;
    const ids: string[] = [];
    for (let i = 0; i < events; i++)
      ids.push(await h.publish('chat.message.created', { message_id: String(i) }));
    await eventually(
      async () => fast.received.length,
      (n) => n >= events,
      20_000,
    );
    expect(new Set(fast.ids())).toEqual(new Set(ids));
    // The hung endpoint holds at most its share of sends, none answered or timed out yet.
    expect(hung.received.length).toBeLessThanOrEqual(ENDPOINT_CONCURRENCY);
    const attempts = await h.query<{ n: string }>(
      `SELECT count(*) AS n FROM webhook_attempts a JOIN webhook_messages m ON m.id = a.message_id
        WHERE m.endpoint_id = $1`,
      [hungEndpoint.id],
    );
    expect(attempts[0].n).toBe('0');
  });
});
