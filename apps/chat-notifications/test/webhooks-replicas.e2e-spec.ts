/**
 * Two chat-notifications replicas (processes from dist) delivering to one receiver that answers
 * 200, one replica killed (SIGKILL) midway: every event is delivered, and none twice except a
 * message the dead replica had in flight, which is sent again once its lease expired (delivery
 * is at least once; the same webhook-id lets the receiver see the repeat). 1,000 events are in
 * bench/webhooks.mjs.
 */
import { eventually } from '@media/testing';
import { Receiver, WebhooksHarness } from './webhooks-harness';

const h = new WebhooksHarness({ WEBHOOK_TIMEOUT: '2s', EVENTS_MAX_DELIVER: '20' });
const receiver = new Receiver();

beforeAll(async () => {
  await h.start();
  await h.spawn();
  await h.spawn();
  await receiver.start();
  // A little work per request, so the kill lands while deliveries are going on.
  receiver.answer = () => new Promise((resolve) => setTimeout(() => resolve({ status: 200 }), 10));
}, 120_000);

afterAll(async () => {
  await h.stop();
  await receiver.stop();
});

describe('webhook replicas', () => {
  it('delivers every event once to a 200 receiver across two replicas, one killed midway, repeating only what the dead one had in flight', async () => {
    await h.endpoint(receiver.url, ['chat.message.created']);
    const events = 300;
    const ids = new Set<string>();
    for (let i = 0; i < events; i++)
      ids.add(await h.publish('chat.message.created', { message_id: String(i) }));
    await eventually(
      async () => new Set(receiver.ids()).size,
      (n) => n >= events / 3,
      60_000,
    );
    const victim = h.processes[0].process;
    victim.child.kill('SIGKILL');
    await new Promise((resolve) => victim.child.once('exit', resolve));
    const inFlight = await h.query<{ event_id: string }>(
      `SELECT event_id FROM webhook_messages WHERE status = 'pending' AND lease_owner IS NOT NULL`,
    );
    const held = new Set(inFlight.map((row) => row.event_id));

    const seen = await eventually(
      async () => new Set(receiver.ids()),
      (s) => s.size >= events,
      100_000,
    );
    expect(seen).toEqual(ids);
    // A send the dead replica made but had not recorded is seen already and still pending: its
    // lease expires, and the survivor sends and records it again.
    const states = await eventually(
      () =>
        h.query<{ status: string; n: string }>(
          `SELECT status, count(*) AS n FROM webhook_messages GROUP BY status`,
        ),
      (rows) => rows.length === 1 && rows[0].status === 'delivered',
      60_000,
    );
    expect(states).toEqual([{ status: 'delivered', n: String(events) }]);
    const counts = new Map<string, number>();
    for (const id of receiver.ids()) counts.set(id, (counts.get(id) ?? 0) + 1);
    const repeated = [...counts].filter(([, n]) => n > 1).map(([id]) => id);
    expect(repeated.filter((id) => !held.has(id))).toEqual([]);
    expect([...counts.values()].every((n) => n <= 2)).toBe(true);
  }, 180_000);
});
