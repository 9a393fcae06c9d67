/**
 * Mentions, edits and deletions of chat messages (docs/api/contract.md §7.4), through the
 * gateway against the real apps: mentions checked against the room's members, `chat.mention`
 * notifications, `mention_count` beside `unread_count`, the edit window (moved by backdating a
 * message's `created_at`, and by a replica with a short CHAT_EDIT_WINDOW), the ADMIN exception,
 * tombstones, pushes to a socket on a second replica, and an edit racing a deletion.
 */
import { Client as PgClient } from 'pg';
import { call, eventually, isDefined, type ApiResponse } from '@media/testing';
import {
  api,
  chatDb,
  closeNats,
  connectWs,
  createRoom,
  groupId,
  startReplica,
  system,
  users,
  type Client,
  type TestUser,
} from './support';

const open: Client[] = [];
afterEach(async () => {
  await Promise.all(open.splice(0).map((c) => c.close()));
});
afterAll(async () => {
  await closeNats();
});

/** A test that boots a second replica (up to a minute on a busy machine). */
const WITH_REPLICA = 120_000;

const messagesOf = (room: string) => `/api/v1/chat/rooms/${room}/messages`;
const messagePath = (room: string, message: string) => `${messagesOf(room)}/${message}`;

async function send(
  room: string,
  sender: TestUser,
  body: string,
  mentions?: string[],
): Promise<Record<string, any>> {
  const res = await api(messagesOf(room), { token: sender.token, json: { body, mentions } });
  if (res.status !== 201) throw new Error(`post failed: ${res.status} ${res.text}`);
  return res.body.data;
}

const edit = (room: string, message: string, who: TestUser, body: string): Promise<ApiResponse<any>> =>
  api(messagePath(room, message), { token: who.token, method: 'PATCH', json: { body } });

const remove = (room: string, message: string, who: TestUser): Promise<ApiResponse<any>> =>
  api(messagePath(room, message), { token: who.token, method: 'DELETE' });

/** Moves a message back in time, as if it had been posted `minutes` ago. */
const age = (message: string, minutes: number) =>
  chatDb(`UPDATE chat_messages SET created_at = clock_timestamp() - $2 * interval '1 minute' WHERE id = $1`, [
    message,
    minutes,
  ]);

const roomOf = async (room: string, who: TestUser) =>
  (await api(`/api/v1/chat/rooms/${room}`, { token: who.token })).body.data;

const listed = async (room: string, who: TestUser, message: string) =>
  (await api(messagesOf(room), { token: who.token })).body.data.results.find((m: any) => m.id === message);

describe('mentions', () => {
  let group: string;
  let alice: TestUser;
  let bob: TestUser;
  let carol: TestUser;
  let outsider: TestUser;
  let room: Record<string, any>;

  beforeAll(async () => {
    group = groupId();
    [alice, bob, carol, outsider] = await users(4, { groups: [group] });
    room = await createRoom(alice, group, [bob.id, carol.id]);
  });

  it('posts a message with mentions: 201 with mentions, edited_at and deleted_at null', async () => {
    const res = await api(messagesOf(room.id), {
      token: alice.token,
      json: { body: 'look @bob @carol', mentions: [bob.id, carol.id.toUpperCase()] },
    });
    expect(res.status).toBe(201);
    expect(res.body.data).toMatchObject({
      sender: alice.id,
      body: 'look @bob @carol',
      mentions: [bob.id, carol.id],
      edited_at: null,
      deleted_at: null,
    });
  });

  it('refuses a mention of a non-member with 422 at ["body","mentions","<i>"], every such index', async () => {
    const res = await api(messagesOf(room.id), {
      token: alice.token,
      json: { body: 'hi', mentions: [bob.id, outsider.id, carol.id, '00000000-0000-4000-8000-000000000000'] },
    });
    expect(res.status).toBe(422);
    expect(res.body.detail.map((d: any) => d.loc)).toEqual([
      ['body', 'mentions', '1'],
      ['body', 'mentions', '3'],
    ]);
    const count = await chatDb(
      `SELECT count(*)::int AS n FROM chat_messages WHERE room_id = $1 AND body = 'hi'`,
      [room.id],
    );
    expect(count[0].n).toBe(0);
  });

  it('takes 0..50 distinct uuids: 51, a repeat and a malformed id are 422', async () => {
    const empty = await api(messagesOf(room.id), { token: alice.token, json: { body: 'x', mentions: [] } });
    expect(empty.status).toBe(201);
    const many = Array.from(
      { length: 51 },
      (_, i) => `00000000-0000-4000-8000-${String(i).padStart(12, '0')}`,
    );
    const tooMany = await api(messagesOf(room.id), {
      token: alice.token,
      json: { body: 'x', mentions: many },
    });
    expect(tooMany.status).toBe(422);
    expect(tooMany.body.detail[0].loc).toEqual(['body', 'mentions']);
    const repeated = await api(messagesOf(room.id), {
      token: alice.token,
      json: { body: 'x', mentions: [bob.id, bob.id.toUpperCase()] },
    });
    expect(repeated.status).toBe(422);
    expect(repeated.body.detail[0].loc).toEqual(['body', 'mentions']);
    const malformed = await api(messagesOf(room.id), {
      token: alice.token,
      json: { body: 'x', mentions: ['not-a-uuid'] },
    });
    expect(malformed.status).toBe(422);
    expect(malformed.body.detail[0].loc[0]).toBe('body');
    expect(malformed.body.detail[0].loc[1]).toBe('mentions');
  });

  it('gives each mentioned member a chat.mention notification, and none to the sender mentioning itself', async () => {
    const message = await send(room.id, bob, 'ping carol', [carol.id, bob.id]);
    const entry = await eventually(
      async () => {
        const inbox = await api('/api/v1/notifications', { token: carol.token });
        return inbox.body.data.results.find(
          (n: any) => n.notification_type === 'chat.mention' && n.data.message_id === message.id,
        );
      },
      isDefined,
      { timeoutMs: 8_000, orThrow: true },
    );
    expect(entry).toMatchObject({
      recipient_id: carol.id,
      data: { room_id: room.id, message_id: message.id, sender: bob.id },
      body: 'ping carol',
    });
    const own = await chatDb(
      `SELECT count(*)::int AS n FROM notifications
        WHERE notification_type = 'chat.mention' AND recipient_id = $1 AND data ->> 'message_id' = $2`,
      [bob.id, message.id],
    );
    expect(own[0].n).toBe(0);
  });

  it('counts unread mentions per room as mention_count (a string), cleared by the read marker', async () => {
    const [dan, erin] = await users(2, { groups: [group] });
    const fresh = await createRoom(dan, group, [erin.id, alice.id]);
    await send(fresh.id, dan, 'one', [erin.id]);
    await send(fresh.id, dan, 'two');
    await send(fresh.id, alice, 'three', [erin.id, dan.id]);
    await send(fresh.id, erin, 'mine', [erin.id]);
    const erinView = await roomOf(fresh.id, erin);
    expect(erinView).toMatchObject({ unread_count: '3', mention_count: '2' });
    expect(await roomOf(fresh.id, dan)).toMatchObject({ unread_count: '2', mention_count: '1' });
    expect(await roomOf(fresh.id, alice)).toMatchObject({ mention_count: '0' });
    const list = await api('/api/v1/chat/rooms', { token: erin.token });
    expect(list.body.data.results.find((r: any) => r.id === fresh.id)).toMatchObject({ mention_count: '2' });
    const read = await api(`/api/v1/chat/rooms/${fresh.id}/read`, { token: erin.token, method: 'POST' });
    expect(read.body.data).toMatchObject({ unread_count: '0', mention_count: '0' });
    await send(fresh.id, dan, 'again', [erin.id]);
    expect(await roomOf(fresh.id, erin)).toMatchObject({ unread_count: '1', mention_count: '1' });
  });

  it('takes mentions on a DIRECT room of its two users', async () => {
    const direct = await api('/api/v1/chat/rooms/direct', {
      token: alice.token,
      json: { user_id: carol.id },
    });
    const id = direct.body.data.id;
    await send(id, alice, 'hey', [carol.id]);
    expect(await roomOf(id, carol)).toMatchObject({ unread_count: '1', mention_count: '1' });
    const stranger = await api(messagesOf(id), {
      token: alice.token,
      json: { body: 'x', mentions: [bob.id] },
    });
    expect(stranger.status).toBe(422);
    expect(stranger.body.detail[0].loc).toEqual(['body', 'mentions', '0']);
  });
});

describe('edits', () => {
  let group: string;
  let alice: TestUser;
  let bob: TestUser;
  let outsider: TestUser;
  let room: Record<string, any>;

  beforeAll(async () => {
    group = groupId();
    [alice, bob, outsider] = await users(3, { groups: [group] });
    room = await createRoom(alice, group, [bob.id]);
  });

  it('lets the sender edit the body: 200 with edited_at set and mentions unchanged', async () => {
    const message = await send(room.id, bob, 'helo', [alice.id]);
    const res = await edit(room.id, message.id, bob, 'hello');
    expect(res.status).toBe(200);
    expect(res.body).toMatchObject({ success: true, message: 'Message edited' });
    expect(res.body.data).toMatchObject({
      id: message.id,
      body: 'hello',
      mentions: [alice.id],
      deleted_at: null,
      created_at: message.created_at,
    });
    expect(Date.parse(res.body.data.edited_at)).toBeGreaterThanOrEqual(Date.parse(message.created_at));
    expect(await listed(room.id, alice, message.id)).toEqual(res.body.data);
  });

  it('refuses anyone but the sender with 403, a non-member and an unknown message with 404', async () => {
    const message = await send(room.id, bob, 'mine');
    expect((await edit(room.id, message.id, alice, 'x')).status).toBe(403);
    expect((await edit(room.id, message.id, outsider, 'x')).status).toBe(404);
    const unknown = await edit(room.id, '00000000-0000-4000-8000-000000000000', bob, 'x');
    expect(unknown.status).toBe(404);
    const other = await createRoom(alice, group, [bob.id]);
    expect((await edit(other.id, message.id, bob, 'x')).status).toBe(404);
    expect((await listed(room.id, bob, message.id)).body).toBe('mine');
  });

  it('validates the body (1..4000) with 422 at ["body","body"], takes JSON or a form, refuses multipart', async () => {
    const message = await send(room.id, bob, 'mine');
    const empty = await edit(room.id, message.id, bob, '');
    expect(empty.status).toBe(422);
    expect(empty.body.detail[0].loc).toEqual(['body', 'body']);
    const extra = await api(messagePath(room.id, message.id), {
      token: bob.token,
      method: 'PATCH',
      json: { body: 'x', mentions: [] },
    });
    expect(extra.status).toBe(422);
    const form = await api(messagePath(room.id, message.id), {
      token: bob.token,
      method: 'PATCH',
      form: { body: 'from a form' },
    });
    expect(form.status).toBe(200);
    expect(form.body.data.body).toBe('from a form');
    const multipart = new FormData();
    multipart.append('body', 'x');
    const refused = await api(messagePath(room.id, message.id), {
      token: bob.token,
      method: 'PATCH',
      multipart,
    });
    expect(refused.status).toBe(415);
  });

  it('answers 409 edit_window_closed once CHAT_EDIT_WINDOW (15 min) has passed', async () => {
    const inside = await send(room.id, bob, 'late');
    await age(inside.id, 14);
    expect((await edit(room.id, inside.id, bob, 'still in time')).status).toBe(200);
    const outside = await send(room.id, bob, 'too late');
    await age(outside.id, 16);
    const res = await edit(room.id, outside.id, bob, 'x');
    expect(res.status).toBe(409);
    expect(res.body.code).toBe('edit_window_closed');
    expect((await listed(room.id, bob, outside.id)).body).toBe('too late');
  });

  it('answers 409 message_deleted for a deleted message', async () => {
    const message = await send(room.id, bob, 'gone soon');
    expect((await remove(room.id, message.id, bob)).status).toBe(204);
    const res = await edit(room.id, message.id, bob, 'x');
    expect(res.status).toBe(409);
    expect(res.body.code).toBe('message_deleted');
  });

  it(
    'uses the configured window: a replica with CHAT_EDIT_WINDOW=1m closes it after a minute',
    async () => {
      const replica = await startReplica({ CHAT_EDIT_WINDOW: '1m' });
      try {
        const message = await send(room.id, bob, 'configured');
        await age(message.id, 2);
        const there = await call(replica.url, messagePath(room.id, message.id), {
          token: bob.token,
          method: 'PATCH',
          json: { body: 'x' },
        });
        expect(there.status).toBe(409);
        expect(there.body.code).toBe('edit_window_closed');
        const deleteThere = await call(replica.url, messagePath(room.id, message.id), {
          token: bob.token,
          method: 'DELETE',
        });
        expect(deleteThere.status).toBe(409);
        // The stack's own instance (default 15 min) still takes it.
        expect((await edit(room.id, message.id, bob, 'edited')).status).toBe(200);
      } finally {
        await replica.stop();
      }
    },
    WITH_REPLICA,
  );
});

describe('deletions', () => {
  let group: string;
  let admin: TestUser;
  let bob: TestUser;
  let carol: TestUser;
  let room: Record<string, any>;

  beforeAll(async () => {
    group = groupId();
    [admin, bob, carol] = await users(3, { groups: [group] });
    room = await createRoom(admin, group, [bob.id, carol.id]);
  });

  it('lets the sender delete within the window: 204, a tombstone stays in the list', async () => {
    const message = await send(room.id, bob, 'secret', [carol.id]);
    const res = await remove(room.id, message.id, bob);
    expect(res.status).toBe(204);
    expect(res.text).toBe('');
    const tombstone = await listed(room.id, carol, message.id);
    expect(tombstone).toMatchObject({ id: message.id, body: null, sender: bob.id, edited_at: null });
    expect(Date.parse(tombstone.deleted_at)).toBeGreaterThanOrEqual(Date.parse(message.created_at));
    // Deleting it again changes nothing.
    expect((await remove(room.id, message.id, bob)).status).toBe(204);
    expect(await listed(room.id, carol, message.id)).toEqual(tombstone);
  });

  it('stops counting a deleted message as unread or as a mention', async () => {
    const fresh = await createRoom(admin, group, [bob.id, carol.id]);
    const first = await send(fresh.id, bob, 'one', [carol.id]);
    await send(fresh.id, bob, 'two', [carol.id]);
    expect(await roomOf(fresh.id, carol)).toMatchObject({ unread_count: '2', mention_count: '2' });
    expect((await remove(fresh.id, first.id, bob)).status).toBe(204);
    expect(await roomOf(fresh.id, carol)).toMatchObject({ unread_count: '1', mention_count: '1' });
    expect(await roomOf(fresh.id, admin)).toMatchObject({ unread_count: '1', mention_count: '0' });
  });

  it('refuses the sender after the window (409 edit_window_closed) and another MEMBER (403)', async () => {
    const message = await send(room.id, bob, 'old');
    expect((await remove(room.id, message.id, carol)).status).toBe(403);
    await age(message.id, 16);
    const late = await remove(room.id, message.id, bob);
    expect(late.status).toBe(409);
    expect(late.body.code).toBe('edit_window_closed');
    expect((await listed(room.id, bob, message.id)).body).toBe('old');
  });

  it("lets an ADMIN of a GROUP room delete anyone's message at any time", async () => {
    const message = await send(room.id, bob, 'moderated');
    await age(message.id, 60 * 24);
    expect((await remove(room.id, message.id, admin)).status).toBe(204);
    expect(await listed(room.id, bob, message.id)).toMatchObject({
      body: null,
      deleted_at: expect.any(String),
    });
  });

  it('in a DIRECT room only the sender may delete, although both are ADMINs', async () => {
    const direct = await api('/api/v1/chat/rooms/direct', { token: bob.token, json: { user_id: carol.id } });
    expect(direct.text).toContain('"room_type":"DIRECT"');
    const id = direct.body.data.id;
    const message = await send(id, bob, 'between us');
    expect((await remove(id, message.id, carol)).status).toBe(403);
    expect((await remove(id, message.id, bob)).status).toBe(204);
    const old = await send(id, carol, 'older');
    await age(old.id, 16);
    expect((await remove(id, old.id, carol)).status).toBe(409);
  });

  /**
   * The test holds the message's row lock in a transaction of its own, sends one request, waits
   * until it is blocked on that lock, sends the other, waits until both are: the two are under
   * way at once (the race), queued on the row in the order they came. Released, the first takes
   * the row; sent in either order, each end is consistent.
   */
  it.each([
    ['the edit', 200, 'edit' as const],
    ['the deletion', 409, 'delete' as const],
  ])(
    'ends an edit racing a deletion consistently when %s takes the row first: a tombstone, the edit %i',
    async (_first, editStatus, first) => {
      const message = await send(room.id, bob, 'raced');
      const holder = new PgClient({ connectionString: system().databases['chat-notifications'] });
      await holder.connect();
      try {
        await holder.query('BEGIN');
        await holder.query('SELECT id FROM chat_messages WHERE id = $1 FOR UPDATE', [message.id]);
        // Waiting on the row: the first request behind the test's lock, the second behind the first.
        const blocked = async (n: number) =>
          expect(
            await eventually(
              async () =>
                (
                  await holder.query<{ n: number }>(
                    `SELECT count(*)::int AS n FROM pg_stat_activity
                      WHERE datname = current_database() AND cardinality(pg_blocking_pids(pid)) > 0`,
                  )
                ).rows[0].n,
              (waiting) => waiting >= n,
              { timeoutMs: 10_000 },
            ),
          ).toBe(n);
        const editing = () => edit(room.id, message.id, bob, 'edited while deleted');
        const deleting = () => remove(room.id, message.id, bob);
        const firstSent = first === 'edit' ? editing() : deleting();
        await blocked(1);
        const secondSent = first === 'edit' ? deleting() : editing();
        await blocked(2);
        await holder.query('COMMIT');
        const [one, two] = await Promise.all([firstSent, secondSent]);
        const [edited, deleted] = first === 'edit' ? [one, two] : [two, one];
        expect(deleted.status).toBe(204);
        expect(edited.status).toBe(editStatus);
        const [row] = await chatDb(`SELECT body, edited_at, deleted_at FROM chat_messages WHERE id = $1`, [
          message.id,
        ]);
        expect(row.body).toBeNull();
        expect(row.deleted_at).not.toBeNull();
        if (editStatus === 200) {
          // The edit committed first: the deletion came after it.
          expect(row.edited_at.getTime()).toBeLessThanOrEqual(row.deleted_at.getTime());
        } else {
          expect(edited.body.code).toBe('message_deleted');
          expect(row.edited_at).toBeNull();
        }
      } finally {
        await holder.query('ROLLBACK').catch(() => undefined);
        await holder.end();
      }
    },
  );
});

describe('pushes of edits and deletions', () => {
  it(
    'pushes chat.message.updated and chat.message.deleted to members on another replica and through the gateway',
    async () => {
      const replica = await startReplica();
      try {
        const group = groupId();
        const [alice, bob, outsider] = await users(3, { groups: [group] });
        const room = await createRoom(alice, group, [bob.id]);
        const ticket = (await api('/api/v1/ws/tickets', { token: bob.token, method: 'POST' })).body.data
          .ticket;
        const onReplica = await connectWs({ base: replica.url, ticket });
        const viaGateway = await connectWs({ token: alice.token });
        const stranger = await connectWs({ token: outsider.token });
        open.push(onReplica, viaGateway, stranger);
        const message = await send(room.id, alice, 'first draft', [bob.id]);
        const edited = (await edit(room.id, message.id, alice, 'final')).body.data;
        const updated = await onReplica.next((f) => f.event === 'chat.message.updated');
        expect(updated.data).toEqual(edited);
        expect((await viaGateway.next((f) => f.event === 'chat.message.updated')).data).toEqual(edited);
        expect((await remove(room.id, message.id, alice)).status).toBe(204);
        const deleted = await onReplica.next((f) => f.event === 'chat.message.deleted');
        expect(deleted.data).toMatchObject({
          id: message.id,
          room_id: room.id,
          body: null,
          mentions: [bob.id],
        });
        expect(deleted.data.deleted_at).toEqual(expect.any(String));
        expect((await viaGateway.next((f) => f.event === 'chat.message.deleted')).data).toEqual(deleted.data);
        // The outsider's socket got none of the room's events: a message in its own room, pushed
        // after them, is the first chat frame it holds.
        const own = await createRoom(outsider, group);
        const mine = await send(own.id, outsider, 'my own');
        await stranger.next((f) => f.event === 'chat.message' && f.data.id === mine.id);
        expect(stranger.frames.filter((f) => f.event.startsWith('chat.')).map((f) => f.data.id)).toEqual([
          mine.id,
        ]);
      } finally {
        await replica.stop();
      }
    },
    WITH_REPLICA,
  );
});
