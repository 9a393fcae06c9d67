/**
 * Notification preferences (docs/api/contract.md §4.14), the inbox fed by the other apps'
 * events and by `notifications.send`, and email recorded as skipped without SMTP_URL.
 */
import { eventually, isDefined } from '@media/testing';
import { randomUUID } from 'node:crypto';
import {
  api,
  ask,
  chatDb,
  closeNats,
  createRoom,
  groupId,
  post,
  publishEvent,
  user,
  users,
  type TestUser,
} from './support';

afterAll(async () => {
  await closeNats();
});

describe('PUT /api/v1/notifications/preferences', () => {
  it('upserts one object (channel defaults to websocket) and returns the whole list, enveloped', async () => {
    const me = await user();
    const res = await api('/api/v1/notifications/preferences', {
      token: me.token,
      method: 'PUT',
      json: { notification_type: 'chat.message.created', enabled: false },
    });
    expect(res.status).toBe(200);
    expect(res.body.success).toBe(true);
    expect(res.body.message).toEqual(expect.any(String));
    expect(res.body.data.preferences).toEqual([
      {
        id: expect.any(String),
        recipient_id: me.id,
        notification_type: 'chat.message.created',
        channel: 'websocket',
        enabled: false,
        created_at: expect.stringMatching(/Z$/),
        updated_at: expect.stringMatching(/Z$/),
      },
    ]);
    const again = await api('/api/v1/notifications/preferences', {
      token: me.token,
      method: 'PUT',
      json: { notification_type: 'chat.message.created', enabled: true },
    });
    expect(again.body.data.preferences).toHaveLength(1);
    expect(again.body.data.preferences[0]).toMatchObject({
      id: res.body.data.preferences[0].id,
      enabled: true,
    });
  });

  it('takes a list, orders the result by type then channel in byte order (* first)', async () => {
    const me = await user();
    const res = await api('/api/v1/notifications/preferences', {
      token: me.token,
      method: 'PUT',
      json: [
        { notification_type: 'b', channel: 'websocket', enabled: true },
        { notification_type: 'B', channel: 'email', enabled: false },
        { notification_type: '*', channel: 'websocket', enabled: false },
        { notification_type: 'b', channel: 'email', enabled: true },
      ],
    });
    expect(res.status).toBe(200);
    expect(res.body.data.preferences.map((p: any) => `${p.notification_type}/${p.channel}`)).toEqual([
      '*/websocket',
      'B/email',
      'b/email',
      'b/websocket',
    ]);
    const get = await api('/api/v1/notifications/preferences', { token: me.token });
    expect(get.status).toBe(200);
    expect(get.body.data.preferences).toEqual(res.body.data.preferences);
    const other = await user();
    const theirs = await api('/api/v1/notifications/preferences', { token: other.token });
    expect(theirs.body.data.preferences).toEqual([]);
  });

  it('takes 1 and 100 items, refuses 0 and 101', async () => {
    const me = await user();
    const items = (n: number) =>
      Array.from({ length: n }, (_, i) => ({ notification_type: `t${i}`, enabled: true }));
    const hundred = await api('/api/v1/notifications/preferences', {
      token: me.token,
      method: 'PUT',
      json: items(100),
    });
    expect(hundred.status).toBe(200);
    expect(hundred.body.data.preferences).toHaveLength(100);
    const one = await api('/api/v1/notifications/preferences', {
      token: me.token,
      method: 'PUT',
      json: items(1),
    });
    expect(one.status).toBe(200);
    const none = await api('/api/v1/notifications/preferences', { token: me.token, method: 'PUT', json: [] });
    expect(none.status).toBe(422);
    expect(none.body.detail).toEqual([expect.objectContaining({ loc: ['body'], type: 'too_short' })]);
    const tooMany = await api('/api/v1/notifications/preferences', {
      token: me.token,
      method: 'PUT',
      json: items(101),
    });
    expect(tooMany.status).toBe(422);
    expect(tooMany.body.detail).toEqual([expect.objectContaining({ loc: ['body'], type: 'too_long' })]);
  });

  it('refuses the same (type, channel) twice at the later index, and locates item errors by index', async () => {
    const me = await user();
    const dup = await api('/api/v1/notifications/preferences', {
      token: me.token,
      method: 'PUT',
      json: [
        { notification_type: 'x', enabled: true },
        { notification_type: 'x', channel: 'email', enabled: true },
        { notification_type: 'x', channel: 'websocket', enabled: false },
      ],
    });
    expect(dup.status).toBe(422);
    expect(dup.body.detail).toEqual([expect.objectContaining({ loc: ['body', '2'], type: 'value_error' })]);

    const bad = await api('/api/v1/notifications/preferences', {
      token: me.token,
      method: 'PUT',
      json: [
        { notification_type: 'ok', enabled: true },
        { notification_type: '', channel: 'sms', enabled: 'yes', extra: 1 },
      ],
    });
    expect(bad.status).toBe(422);
    expect(bad.body.detail.map((d: any) => [d.loc, d.type])).toEqual(
      expect.arrayContaining([
        [['body', '1', 'notification_type'], 'string_too_short'],
        [['body', '1', 'channel'], 'enum'],
        [['body', '1', 'enabled'], 'bool_parsing'],
        [['body', '1', 'extra'], 'extra_forbidden'],
      ]),
    );
    const after = await api('/api/v1/notifications/preferences', { token: me.token });
    expect(after.body.data.preferences).toEqual([]);
  });

  it('limits notification_type to 1..100 characters and needs enabled', async () => {
    const me = await user();
    const ok = await api('/api/v1/notifications/preferences', {
      token: me.token,
      method: 'PUT',
      json: { notification_type: 't'.repeat(100), enabled: true },
    });
    expect(ok.status).toBe(200);
    const long = await api('/api/v1/notifications/preferences', {
      token: me.token,
      method: 'PUT',
      json: { notification_type: 't'.repeat(101) },
    });
    expect(long.status).toBe(422);
    expect(long.body.detail.map((d: any) => [d.loc, d.type])).toEqual([
      [['body', 'notification_type'], 'string_too_long'],
      [['body', 'enabled'], 'missing'],
    ]);
    const nul = await api('/api/v1/notifications/preferences', {
      token: me.token,
      method: 'PUT',
      json: null,
    });
    expect(nul.status).toBe(422);
    expect(nul.body.detail[0]).toMatchObject({ loc: ['body'], type: 'model_type' });
  });

  it('accepts urlencoded and multipart bodies with the same fields', async () => {
    const me = await user();
    const form = await api('/api/v1/notifications/preferences', {
      token: me.token,
      method: 'PUT',
      form: { notification_type: '*', channel: 'email', enabled: 'false' },
    });
    expect(form.status).toBe(200);
    expect(form.body.data.preferences[0]).toMatchObject({
      notification_type: '*',
      channel: 'email',
      enabled: false,
    });
    const multipart = new FormData();
    multipart.append('notification_type', 'chat.message.created');
    multipart.append('enabled', 'true');
    const mp = await api('/api/v1/notifications/preferences', { token: me.token, method: 'PUT', multipart });
    expect(mp.status).toBe(200);
    expect(mp.body.data.preferences).toHaveLength(2);
    const badForm = await api('/api/v1/notifications/preferences', {
      token: me.token,
      method: 'PUT',
      form: { notification_type: 'x', enabled: 'maybe' },
    });
    expect(badForm.status).toBe(422);
    expect(badForm.body.detail[0]).toMatchObject({ loc: ['body', 'enabled'], type: 'bool_parsing' });
  });

  it('answers 401 without a token', async () => {
    const res = await api('/api/v1/notifications/preferences', {
      method: 'PUT',
      json: { notification_type: 'x', enabled: true },
    });
    expect(res.status).toBe(401);
  });
});

/** Sends one notification of `type` to `recipient` and returns its inbox row's delivery columns. */
async function deliveries(recipient: TestUser, type: string) {
  const reply = await ask('notifications.send', {
    recipient_ids: [recipient.id],
    notification_type: type,
    title: 't',
  });
  expect(reply.response).toEqual({ delivered: 1 });
  const rows = await chatDb<{ websocket_status: string; email_status: string }>(
    `SELECT websocket_status, email_status FROM notifications WHERE recipient_id = $1 AND notification_type = $2`,
    [recipient.id, type],
  );
  return rows[0];
}

async function prefer(
  me: TestUser,
  items: { notification_type: string; channel: string; enabled: boolean }[],
) {
  const res = await api('/api/v1/notifications/preferences', { token: me.token, method: 'PUT', json: items });
  expect(res.status).toBe(200);
}

describe('preference resolution: (T, C), else (*, C), else enabled (docs/api/contract.md §4.14)', () => {
  it.each([
    ['no rows: enabled', [], 'pending'],
    ['(*, websocket) off', [{ notification_type: '*', channel: 'websocket', enabled: false }], 'disabled'],
    [
      '(T, websocket) on beats (*, websocket) off',
      [
        { notification_type: '*', channel: 'websocket', enabled: false },
        { notification_type: 'T', channel: 'websocket', enabled: true },
      ],
      'pending|sent',
    ],
    [
      '(T, websocket) off beats (*, websocket) on',
      [
        { notification_type: '*', channel: 'websocket', enabled: true },
        { notification_type: 'T', channel: 'websocket', enabled: false },
      ],
      'disabled',
    ],
    [
      'another type off changes nothing',
      [{ notification_type: 'U', channel: 'websocket', enabled: false }],
      'pending|sent',
    ],
    [
      'the email channel does not decide websocket',
      [{ notification_type: 'T', channel: 'email', enabled: false }],
      'pending|sent',
    ],
  ])('%s', async (_name, items, expected) => {
    const me = await user();
    if (items.length) await prefer(me, items);
    const row = await deliveries(me, 'T');
    expect(expected.replace('pending', 'pending|sent').split('|')).toContain(row.websocket_status);
  });

  it('resolves the email channel the same way; without SMTP_URL an enabled email is recorded as skipped', async () => {
    const me = await user();
    expect((await deliveries(me, 'T')).email_status).toBe('skipped');
    const off = await user();
    await prefer(off, [{ notification_type: '*', channel: 'email', enabled: false }]);
    expect((await deliveries(off, 'T')).email_status).toBe('disabled');
    const on = await user();
    await prefer(on, [
      { notification_type: '*', channel: 'email', enabled: false },
      { notification_type: 'T', channel: 'email', enabled: true },
    ]);
    expect((await deliveries(on, 'T')).email_status).toBe('skipped');
  });

  it('shows the skipped email in the inbox entry', async () => {
    const me = await user();
    await deliveries(me, 'T');
    const inbox = await api('/api/v1/notifications', { token: me.token });
    expect(inbox.body.data.results[0].deliveries.email).toBe('skipped');
  });
});

describe('notifications.send', () => {
  it('creates one entry per distinct recipient', async () => {
    const [a, b] = await users(2);
    const reply = await ask('notifications.send', {
      recipient_ids: [a.id, b.id, a.id],
      notification_type: 'custom',
      title: 'Hello',
      body: 'World',
      data: { k: 1 },
    });
    expect(reply.response).toEqual({ delivered: 2 });
    const inbox = await api('/api/v1/notifications', { token: a.token });
    expect(inbox.body.data.results[0]).toMatchObject({
      recipient_id: a.id,
      notification_type: 'custom',
      title: 'Hello',
      body: 'World',
      data: { k: 1 },
      priority: 'MEDIUM',
      is_read: false,
      is_archived: false,
    });
  });

  it('takes an optional priority and refuses an unknown one', async () => {
    const me = await user();
    const reply = await ask('notifications.send', {
      recipient_ids: [me.id],
      notification_type: 'custom',
      title: 'Now',
      priority: 'URGENT',
    });
    expect(reply.response).toEqual({ delivered: 1 });
    const inbox = await api('/api/v1/notifications', { token: me.token });
    expect(inbox.body.data.results[0].priority).toBe('URGENT');
    const bad = await ask('notifications.send', {
      recipient_ids: [me.id],
      notification_type: 'custom',
      title: 'Now',
      priority: 'SOON',
    });
    expect(reply.err).toBeUndefined();
    expect(bad.err?.status).toBe(422);
    expect((bad.err?.detail as any[]).map((d) => d.loc)).toEqual([['data', 'priority']]);
  });

  it('answers a malformed request with a 422 error at ["data", ...]', async () => {
    const reply = await ask('notifications.send', { recipient_ids: ['x'], title: '' });
    expect(reply.err?.status).toBe(422);
    expect((reply.err?.detail as any[]).map((d) => d.loc)).toEqual(
      expect.arrayContaining([
        ['data', 'recipient_ids', '0'],
        ['data', 'notification_type'],
        ['data', 'title'],
      ]),
    );
  });
});

/**
 * How long an event published here may take to reach the inbox: it goes through JetStream to the
 * app's consumer, which on a loaded 2-core machine (CI's lanes side by side) took over 8 s once.
 */
const EVENT_APPLIED_MS = 30_000;

describe('the inbox fed by events', () => {
  const inboxOf = async (who: TestUser, type: string) =>
    eventually(
      async () => {
        const res = await api('/api/v1/notifications', { token: who.token });
        return res.body.data.results.find((n: any) => n.notification_type === type);
      },
      isDefined,
      { timeoutMs: EVENT_APPLIED_MS, orThrow: true },
    );

  it('notifies the assignee of assignment.task.claimed and .escalated', async () => {
    const assignee = await user();
    const taskId = randomUUID();
    await publishEvent('assignment.task.claimed', {
      task_id: taskId,
      assigned_to: assignee.id,
      claimed_by: randomUUID(),
    });
    await publishEvent('assignment.task.escalated', {
      task_id: taskId,
      assigned_to: assignee.id,
      escalation_level: 2,
    });
    expect((await inboxOf(assignee, 'assignment.task.claimed')).data.task_id).toBe(taskId);
    expect((await inboxOf(assignee, 'assignment.task.escalated')).data).toMatchObject({
      escalation_level: 2,
    });
  });

  it("gives a task notification the task's priority and an escalation URGENT (docs/api/contract.md §7.3)", async () => {
    const assignee = await user();
    await publishEvent('assignment.task.claimed', {
      task_id: randomUUID(),
      assigned_to: assignee.id,
      claimed_by: assignee.id,
      priority: 'HIGH',
    });
    await publishEvent('assignment.task.escalated', {
      task_id: randomUUID(),
      assigned_to: assignee.id,
      escalation_level: 1,
      priority: 'LOW',
    });
    expect((await inboxOf(assignee, 'assignment.task.claimed')).priority).toBe('HIGH');
    expect((await inboxOf(assignee, 'assignment.task.escalated')).priority).toBe('URGENT');
  });

  it('notifies the inviter of acl.correspondent.invited', async () => {
    const inviter = await user();
    await publishEvent('acl.correspondent.invited', {
      user_id: randomUUID(),
      email: 'new@example.com',
      name: 'New Person',
      invited_by: inviter.id,
      expires_at: new Date(Date.now() + 86_400_000).toISOString(),
    });
    expect((await inboxOf(inviter, 'acl.correspondent.invited')).title).toContain('New Person');
  });

  it('notifies the uploader of documents.document.deleted', async () => {
    const uploader = await user();
    const documentId = randomUUID();
    await publishEvent('documents.document.deleted', { document_id: documentId, uploaded_by: uploader.id });
    expect((await inboxOf(uploader, 'documents.document.deleted')).data.document_id).toBe(documentId);
  });

  it('notifies the other members of chat.message.created, never the sender, once per event', async () => {
    const g = groupId();
    const [sender, a, b] = await users(3, { groups: [g] });
    const room = await createRoom(sender, g, [a.id, b.id]);
    const message = await post(room.id, sender, 'news!');
    for (const member of [a, b]) {
      const entry = await inboxOf(member, 'chat.message.created');
      expect(entry).toMatchObject({ body: 'news!', data: { room_id: room.id, message_id: message.id } });
    }
    const mine = await api('/api/v1/notifications', { token: sender.token });
    expect(mine.body.data.results).toEqual([]);
    // The same event delivered twice adds one entry.
    const event = {
      message_id: randomUUID(),
      room_id: room.id,
      room_name: 'x',
      sender: sender.id,
      body: 'twice',
      created_at: new Date().toISOString(),
      recipient_ids: [a.id],
    };
    const eventId = await publishEvent('chat.message.created', event);
    await publishEvent('chat.message.created', event, eventId);
    await eventually(
      async () => {
        const res = await api('/api/v1/notifications', { token: a.token });
        return res.body.data.results.some((n: any) => n.body === 'twice') ? true : undefined;
      },
      isDefined,
      { timeoutMs: EVENT_APPLIED_MS, orThrow: true },
    );
    // A later event, through the same consumer in order: once it is applied, so is the repeat.
    await publishEvent('chat.message.created', { ...event, message_id: randomUUID(), body: 'marker' });
    await eventually(
      async () => {
        const res = await api('/api/v1/notifications', { token: a.token });
        return res.body.data.results.some((n: any) => n.body === 'marker') ? true : undefined;
      },
      isDefined,
      { timeoutMs: EVENT_APPLIED_MS, orThrow: true },
    );
    const [count] = await chatDb<{ n: number }>(
      `SELECT count(*)::int AS n FROM notifications WHERE recipient_id = $1 AND body = 'twice'`,
      [a.id],
    );
    expect(count.n).toBe(1);
  });
});

describe('inbox endpoints', () => {
  async function seeded(n: number): Promise<TestUser> {
    const me = await user();
    for (let i = 0; i < n; i++) {
      await ask('notifications.send', { recipient_ids: [me.id], notification_type: 'seed', title: `n${i}` });
    }
    return me;
  }

  it('lists newest first with cursor pages and the unread_count in data', async () => {
    const me = await seeded(3);
    const page = await api('/api/v1/notifications?page_size=2', { token: me.token });
    expect(page.status).toBe(200);
    expect(page.body.data.unread_count).toBe(3);
    expect(page.body.data.results.map((n: any) => n.title)).toEqual(['n2', 'n1']);
    const next = new URL(page.body.data.next);
    const rest = await api(`${next.pathname}${next.search}`, { token: me.token });
    expect(rest.body.data.results.map((n: any) => n.title)).toEqual(['n0']);
  });

  it('marks one read, filters unread, archives out of the default list, reads all', async () => {
    const me = await seeded(3);
    const list = await api('/api/v1/notifications', { token: me.token });
    const [n2, n1] = list.body.data.results;
    const read = await api(`/api/v1/notifications/${n2.id}/read`, { token: me.token, method: 'POST' });
    expect(read.status).toBe(200);
    expect(read.body.data).toMatchObject({ id: n2.id, is_read: true, read_at: expect.stringMatching(/Z$/) });
    const unread = await api('/api/v1/notifications?unread=true', { token: me.token });
    expect(unread.body.data.results.map((n: any) => n.title)).toEqual(['n1', 'n0']);
    expect(unread.body.data.unread_count).toBe(2);
    const readOnly = await api('/api/v1/notifications?unread=false', { token: me.token });
    expect(readOnly.body.data.results.map((n: any) => n.title)).toEqual(['n2']);

    const archived = await api(`/api/v1/notifications/${n1.id}/archive`, { token: me.token, method: 'POST' });
    expect(archived.status).toBe(200);
    expect(archived.body.data.is_archived).toBe(true);
    const def = await api('/api/v1/notifications', { token: me.token });
    expect(def.body.data.results.map((n: any) => n.title)).toEqual(['n2', 'n0']);
    expect(def.body.data.unread_count).toBe(1);
    const onlyArchived = await api('/api/v1/notifications?archived=true', { token: me.token });
    expect(onlyArchived.body.data.results.map((n: any) => n.title)).toEqual(['n1']);

    const all = await api('/api/v1/notifications/read-all', { token: me.token, method: 'POST' });
    expect(all.status).toBe(200);
    expect(all.body.data).toEqual({ updated: 1, unread_count: 0 });

    const badFilter = await api('/api/v1/notifications?unread=maybe', { token: me.token });
    expect(badFilter.status).toBe(422);
    expect(badFilter.body.detail[0].loc).toEqual(['query', 'unread']);
  });

  it("answers 404 for another user's notification and an unknown one", async () => {
    const owner = await seeded(1);
    const other = await user();
    const [entry] = (await api('/api/v1/notifications', { token: owner.token })).body.data.results;
    for (const action of ['read', 'archive']) {
      const res = await api(`/api/v1/notifications/${entry.id}/${action}`, {
        token: other.token,
        method: 'POST',
      });
      expect(res.status).toBe(404);
      expect(res.body.code).toBe('not_found');
    }
    const unknown = await api(`/api/v1/notifications/${randomUUID()}/read`, {
      token: owner.token,
      method: 'POST',
    });
    expect(unknown.status).toBe(404);
    const still = await api('/api/v1/notifications', { token: owner.token });
    expect(still.body.data.results[0].is_read).toBe(false);
  });
});
