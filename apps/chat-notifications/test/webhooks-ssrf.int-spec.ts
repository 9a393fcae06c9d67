/**
 * Webhook URLs pointed at internal addresses (SSRF), with private addresses not allowed: refused
 * at creation (422 url_not_allowed), and refused again against the address each delivery
 * connects to, so a name that answered a public address at creation and a private one at
 * delivery (DNS rebinding) reaches nothing. The changing resolver is a fake injected into the
 * app's ResolverService; the receiver behind the private address is real.
 */
import type { LookupAddress } from 'node:dns';
import { randomUUID } from 'node:crypto';
import { eventually } from '@media/testing';
import { ResolverService } from '../src/webhooks/resolver.service';
import { Receiver, WebhooksHarness } from './webhooks-harness';

const h = new WebhooksHarness({
  WEBHOOKS_ALLOW_PRIVATE: 'false',
  WEBHOOK_TIMEOUT: '2s',
  WEBHOOK_RETRY_SCHEDULE: '1s',
});
let receiver: Receiver;
let resolver: ResolverService;

beforeAll(async () => {
  await h.start();
  const app = await h.boot();
  resolver = app.get(ResolverService);
  receiver = await new Receiver().start();
}, 60_000);

afterAll(async () => {
  await receiver.stop();
  await h.stop();
});

describe('webhooks and internal addresses', () => {
  it.each([
    'http://169.254.169.254/latest/meta-data/',
    'http://[::1]/',
    'http://10.0.0.1/',
    'http://[::ffff:127.0.0.1]/',
    'http://0.0.0.0/',
    'http://localhost/',
  ])('refuses %s at creation with 422 url_not_allowed', async (url) => {
    const res = await h.api('/endpoints', { method: 'POST', json: { url, event_types: ['*'] } });
    expect(res.status).toBe(422);
    expect(res.body.detail).toEqual([
      { loc: ['body', 'url'], msg: expect.any(String), type: 'url_not_allowed' },
    ]);
  });

  it('refuses a name that resolves to 127.0.0.1 (a fake resolver) at creation and when changed by PATCH', async () => {
    const fake = async (): Promise<LookupAddress[]> => [{ address: '127.0.0.1', family: 4 }];
    const real = resolver.resolve;
    resolver.resolve = fake;
    try {
      const res = await h.api('/endpoints', {
        method: 'POST',
        json: { url: 'http://inside.example/hook', event_types: ['*'] },
      });
      expect(res.status).toBe(422);
      expect(res.body.detail[0]).toMatchObject({ loc: ['body', 'url'], type: 'url_not_allowed' });
    } finally {
      resolver.resolve = real;
    }
    const created = await h.endpoint('http://93.184.215.14/hook');
    resolver.resolve = fake;
    try {
      const res = await h.api(`/endpoints/${created.id}`, {
        method: 'PATCH',
        json: { url: 'http://inside.example/hook' },
      });
      expect(res.status).toBe(422);
      expect(res.body.detail[0]).toMatchObject({ loc: ['body', 'url'], type: 'url_not_allowed' });
    } finally {
      resolver.resolve = real;
    }
    await h.api(`/endpoints/${created.id}`, { method: 'DELETE' });
  });

  it('refuses the connection when a fake resolver answers a public address at the check and 127.0.0.1 at the delivery (DNS rebinding)', async () => {
    const port = new URL(receiver.url).port;
    const real = resolver.resolve;
    let lookups = 0;
    resolver.resolve = async () => {
      lookups += 1;
      return [{ address: lookups === 1 ? '93.184.215.14' : '127.0.0.1', family: 4 }];
    };
    try {
      const { id } = await h.endpoint(`http://rebind.example:${port}/hook`, ['assignment.task.claimed']);
      expect(lookups).toBe(1);
      const eventId = await h.publish('assignment.task.claimed', { task_id: randomUUID() });
      const attempts = await eventually(
        async () =>
          (
            await h.api<{ data: { status_code: number | null; error: string | null }[] }>(
              `/endpoints/${id}/messages/${eventId}/attempts`,
            )
          ).body.data ?? [],
        (a) => a.length >= 1,
        15_000,
      );
      expect(attempts[0]).toMatchObject({
        status_code: null,
        error: expect.stringContaining('127.0.0.1 of rebind.example is not allowed'),
      });
      expect(lookups).toBeGreaterThanOrEqual(2);
      expect(receiver.received).toEqual([]);
    } finally {
      resolver.resolve = real;
    }
  });
});
