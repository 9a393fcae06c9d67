/**
 * Quiet hours and daily digests (docs/api/contract.md §7.3) with two in-process replicas, a real
 * SMTP server and a controlled clock (see ./in-process.ts): what is held, what is released as
 * one email, and a digest sent exactly once across the replicas.
 */
import { randomUUID } from 'node:crypto';
import { eventually } from '@media/testing';
import { Harness } from './in-process';

const h = new Harness();
const SETTINGS = '/api/v1/notifications/settings';

beforeAll(async () => {
  await h.start();
  await h.boot();
  await h.boot();
});

afterAll(async () => {
  await h.stop();
});

async function settle(user: string, done: (rows: Awaited<ReturnType<Harness['rows']>>) => boolean) {
  return eventually(
    async () => {
      await h.roundEverywhere();
      return h.rows(user);
    },
    done,
    10_000,
  );
}

const noneWaiting = (rows: { email_status: string }[]) =>
  rows.length > 0 && rows.every((r) => !['pending'].includes(r.email_status));

async function settings(user: string, body: unknown) {
  const res = await h.api(user, SETTINGS, { method: 'PUT', json: body });
  expect(res.status).toBe(200);
}

describe('quiet hours, with a controlled clock and two replicas', () => {
  it('holds pushes and emails in a range crossing midnight, sends URGENT at once, and releases the held emails as one email listing them', async () => {
    const user = randomUUID();
    h.now = new Date('2026-06-10T21:00:00Z');
    await settings(user, { timezone: 'UTC', quiet_hours: { start: '22:00', end: '07:00' } });
    h.now = new Date('2026-06-10T23:30:00Z');
    const taskId = randomUUID();
    await h.notify({ recipient_ids: [user], notification_type: 'custom', title: 'Before midnight' });
    await h.notify({
      recipient_ids: [user],
      notification_type: 'assignment.task.claimed',
      title: 'A task was assigned to you',
      data: { task_id: taskId },
      priority: 'HIGH',
    });
    await h.notify({ recipient_ids: [user], notification_type: 'custom', title: 'Now!', priority: 'URGENT' });
    const rows = await settle(
      user,
      (r) => noneWaiting(r) && r.every((x) => x.websocket_status !== 'pending'),
    );
    expect(rows.map((r) => [r.title, r.websocket_status, r.email_status])).toEqual([
      ['Before midnight', 'held', 'held'],
      ['A task was assigned to you', 'held', 'held'],
      ['Now!', 'sent', 'sent'],
    ]);
    expect(h.mailsTo(user).map((m) => m.subject)).toEqual(['Now!']);

    // After midnight, still quiet: more held, nothing released.
    h.now = new Date('2026-06-11T06:59:00Z');
    await h.notify({ recipient_ids: [user], notification_type: 'custom', title: 'After midnight' });
    await settle(user, noneWaiting);
    await h.roundEverywhere();
    expect((await h.rows(user)).filter((r) => r.email_status === 'held')).toHaveLength(3);
    expect(h.mailsTo(user)).toHaveLength(1);

    h.now = new Date('2026-06-11T07:00:00Z');
    await settle(user, (r) => r.every((x) => x.email_status === 'sent'));
    await h.roundEverywhere();
    const mails = h.mailsTo(user);
    expect(mails).toHaveLength(2);
    const summary = mails[1];
    expect(summary.subject).toBe('While your notifications were quiet: 3');
    for (const title of ['Before midnight', 'A task was assigned to you', 'After midnight']) {
      expect(summary.text).toContain(title);
    }
    expect(summary.text).toContain(`https://backoffice.example.com/assignment/api/v1/tasks/${taskId}`);
    expect(summary.text).not.toContain('Now!');
    // Held pushes stay held: they are never pushed later.
    expect((await h.rows(user)).filter((r) => r.websocket_status === 'held')).toHaveLength(3);
  });

  it('keeps 22:00 to 07:00 in Europe/Berlin across the October change (07:00 CET is 06:00Z)', async () => {
    const user = randomUUID();
    h.now = new Date('2026-10-24T12:00:00Z');
    await settings(user, { timezone: 'Europe/Berlin', quiet_hours: { start: '22:00', end: '07:00' } });
    // 05:30Z is 06:30 CET (it would be 07:30 at the summer offset): still quiet.
    h.now = new Date('2026-10-25T05:30:00Z');
    await h.notify({ recipient_ids: [user], notification_type: 'custom', title: 'Early' });
    expect((await settle(user, noneWaiting)).map((r) => r.email_status)).toEqual(['held']);
    h.now = new Date('2026-10-25T05:59:00Z');
    await h.roundEverywhere();
    expect((await h.rows(user)).map((r) => r.email_status)).toEqual(['held']);
    h.now = new Date('2026-10-25T06:00:00Z');
    expect((await settle(user, (r) => r[0]?.email_status === 'sent')).map((r) => r.email_status)).toEqual([
      'sent',
    ]);
    expect(h.mailsTo(user).map((m) => m.subject)).toEqual(['While your notifications were quiet: 1']);
  });

  it('delivers at once outside quiet hours', async () => {
    const user = randomUUID();
    h.now = new Date('2026-06-10T12:00:00Z');
    await settings(user, { quiet_hours: { start: '22:00', end: '07:00' } });
    await h.notify({ recipient_ids: [user], notification_type: 'custom', title: 'Midday' });
    const rows = await settle(
      user,
      (r) => r[0]?.email_status === 'sent' && r[0]?.websocket_status === 'sent',
    );
    expect(rows.map((r) => [r.websocket_status, r.email_status])).toEqual([['sent', 'sent']]);
    expect(h.mailsTo(user).map((m) => m.subject)).toEqual(['Midday']);
  });
});

describe('daily digest, with a controlled clock and two replicas', () => {
  it('sends one digest a day at digest_time, exactly once across the replicas; URGENT still at once; none on a day without notifications', async () => {
    const user = randomUUID();
    h.now = new Date('2026-06-11T07:00:00Z');
    await settings(user, { timezone: 'UTC', email_digest: 'daily', digest_time: '08:00' });
    const roomId = randomUUID();
    await h.notify({ recipient_ids: [user], notification_type: 'custom', title: 'First' });
    await h.notify({
      recipient_ids: [user],
      notification_type: 'chat.message.created',
      title: 'New message in Desk',
      data: { room_id: roomId },
    });
    await h.notify({ recipient_ids: [user], notification_type: 'custom', title: 'Fire', priority: 'URGENT' });
    const rows = await settle(user, noneWaiting);
    expect(rows.map((r) => r.email_status)).toEqual(['digest', 'digest', 'sent']);
    expect(h.mailsTo(user).map((m) => m.subject)).toEqual(['Fire']);

    h.now = new Date('2026-06-11T07:59:59Z');
    await h.roundEverywhere();
    expect(h.mailsTo(user)).toHaveLength(1);

    h.now = new Date('2026-06-11T08:00:00Z');
    await settle(user, (r) => r.every((x) => x.email_status === 'sent'));
    for (let i = 0; i < 3; i += 1) await h.roundEverywhere();
    const digests = h.mailsTo(user).filter((m) => m.subject.startsWith('Your daily digest'));
    expect(digests).toHaveLength(1);
    expect(digests[0].subject).toBe('Your daily digest: 2 notifications');
    expect(digests[0].text).toContain('First');
    expect(digests[0].text).toContain(`https://backoffice.example.com/api/v1/chat/rooms/${roomId}/messages`);

    // The next day, nothing new: no email.
    h.now = new Date('2026-06-12T08:00:00Z');
    for (let i = 0; i < 3; i += 1) await h.roundEverywhere();
    expect(h.mailsTo(user)).toHaveLength(2);
    // The day after, one new notification: one digest with it alone.
    await h.notify({ recipient_ids: [user], notification_type: 'custom', title: 'Second day' });
    await settle(user, noneWaiting);
    h.now = new Date('2026-06-13T08:00:00Z');
    await settle(user, (r) => r.every((x) => x.email_status === 'sent'));
    for (let i = 0; i < 3; i += 1) await h.roundEverywhere();
    const all = h.mailsTo(user).map((m) => m.subject);
    expect(all).toEqual(['Fire', 'Your daily digest: 2 notifications', 'Your daily digest: 1 notification']);
  });

  it('sends a digest due during quiet hours at their end', async () => {
    const user = randomUUID();
    h.now = new Date('2026-06-11T12:00:00Z');
    await settings(user, {
      timezone: 'UTC',
      quiet_hours: { start: '22:00', end: '07:00' },
      email_digest: 'daily',
      digest_time: '06:00',
    });
    await h.notify({ recipient_ids: [user], notification_type: 'custom', title: 'Overnight' });
    await settle(user, noneWaiting);
    h.now = new Date('2026-06-12T06:30:00Z');
    await h.roundEverywhere();
    expect(h.mailsTo(user)).toHaveLength(0);
    h.now = new Date('2026-06-12T07:00:00Z');
    await settle(user, (r) => r.every((x) => x.email_status === 'sent'));
    expect(h.mailsTo(user).map((m) => m.subject)).toEqual(['Your daily digest: 1 notification']);
  });
});
