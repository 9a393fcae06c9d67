/**
 * Chat rooms (docs/api/contract.md §4.1) through the gateway, against the
 * real acl (members over NATS), PostgreSQL and JetStream.
 */
import { eventually, isDefined } from '@media/testing';
import { randomUUID } from 'node:crypto';
import {
  api,
  chatDb,
  closeNats,
  createRoom,
  Documents,
  groupId,
  post,
  publishEvent,
  user,
  users,
  type TestUser,
} from './support';

const documents = new Documents();

beforeAll(async () => {
  await documents.start();
});

afterAll(async () => {
  documents.stop();
  await closeNats();
});

const ROOM_KEYS = [
  'created_at',
  'created_by',
  'document_id',
  'group_id',
  'id',
  'is_active',
  'members',
  'mention_count',
  'name',
  'room_type',
  'unread_count',
  'updated_at',
];

describe('POST /api/v1/chat/rooms', () => {
  let group: string;
  let owner: TestUser;
  let token: string;

  beforeAll(async () => {
    group = groupId();
    owner = await user({ groups: [group] });
    token = owner.token;
  });

  it('creates a GROUP room: 201, the envelope, every field, the caller ADMIN and members MEMBER', async () => {
    const [a, b] = await users(2);
    const res = await api('/api/v1/chat/rooms', {
      token,
      json: { name: 'Desk', group_id: group, member_ids: [a.id, b.id, a.id, owner.id] },
    });
    expect(res.status).toBe(201);
    expect(Object.keys(res.body).sort()).toEqual(['data', 'message', 'success']);
    expect(res.body.success).toBe(true);
    expect(res.body.message).toBe('Room created');
    const room = res.body.data;
    expect(Object.keys(room).sort()).toEqual(ROOM_KEYS);
    expect(room).toMatchObject({
      name: 'Desk',
      room_type: 'GROUP',
      group_id: group,
      document_id: null,
      created_by: owner.id,
      is_active: true,
      unread_count: '0',
      mention_count: '0',
    });
    expect(room.created_at).toMatch(/Z$/);
    const roles = Object.fromEntries(room.members.map((m: any) => [m.user, m.role]));
    expect(roles).toEqual({ [owner.id]: 'ADMIN', [a.id]: 'MEMBER', [b.id]: 'MEMBER' });
    for (const m of room.members) {
      expect(Object.keys(m).sort()).toEqual(['id', 'joined_at', 'last_read_at', 'role', 'user']);
      expect(m.last_read_at).toBeNull();
    }
  });

  it('accepts the same fields urlencoded (repeated member_ids) and multipart', async () => {
    const [a, b] = await users(2);
    const form = await api('/api/v1/chat/rooms', {
      token,
      form: { name: 'Form room', group_id: group, member_ids: [a.id, b.id] },
    });
    expect(form.status).toBe(201);
    expect(form.body.data.members).toHaveLength(3);

    const single = await api('/api/v1/chat/rooms', {
      token,
      form: { name: 'One', group_id: group, member_ids: a.id },
    });
    expect(single.status).toBe(201);
    expect(single.body.data.members).toHaveLength(2);

    const multipart = new FormData();
    multipart.append('name', 'Multipart room');
    multipart.append('group_id', group);
    multipart.append('member_ids', a.id);
    multipart.append('member_ids', b.id);
    const mp = await api('/api/v1/chat/rooms', { token, multipart });
    expect(mp.status).toBe(201);
    expect(mp.body.data.name).toBe('Multipart room');
    expect(mp.body.data.members).toHaveLength(3);

    const badForm = await api('/api/v1/chat/rooms', {
      token,
      form: { name: '', group_id: group, member_ids: 'x' },
    });
    expect(badForm.status).toBe(422);
    expect(badForm.body.detail.map((d: any) => d.loc)).toEqual(
      expect.arrayContaining([
        ['body', 'name'],
        ['body', 'member_ids', '0'],
      ]),
    );
  });

  it('answers 403 not_group_member when the token does not carry group_id', async () => {
    const res = await api('/api/v1/chat/rooms', { token, json: { name: 'X', group_id: groupId() } });
    expect(res.status).toBe(403);
    expect(res.body).toEqual({ detail: expect.any(String), code: 'not_group_member' });
  });

  it('says in the 403 that the token does not carry the group and that memberships count from the next login', async () => {
    const other = groupId();
    const res = await api('/api/v1/chat/rooms', { token, json: { name: 'X', group_id: other } });
    expect(res.status).toBe(403);
    expect(res.body.code).toBe('not_group_member');
    expect(res.body.detail).toBe(
      `You are not a member of group '${other}' according to your token. ` +
        'Group memberships take effect at your next login.',
    );
  });

  it('answers 401 without a token and refuses malformed JSON with 422 json_invalid', async () => {
    const none = await api('/api/v1/chat/rooms', { json: { name: 'X', group_id: group } });
    expect(none.status).toBe(401);
    expect(none.body.code).toBe('not_authenticated');
    const bad = await api('/api/v1/chat/rooms', {
      token,
      raw: '{"name": ',
      headers: { 'content-type': 'application/json' },
    });
    expect(bad.status).toBe(422);
    expect(bad.body.detail[0]).toMatchObject({ loc: ['body'], type: 'json_invalid' });
  });

  it('limits name and group_id to 1..255 characters, on both sides', async () => {
    const long = 'n'.repeat(255);
    const longGroup = 'g'.repeat(255);
    const ok = await api('/api/v1/chat/rooms', {
      token: owner.mint({ groups: [longGroup] }),
      json: { name: long, group_id: longGroup },
    });
    expect(ok.status).toBe(201);
    expect(ok.body.data.name).toBe(long);

    const res = await api('/api/v1/chat/rooms', {
      token,
      json: { name: 'n'.repeat(256), group_id: 'g'.repeat(256) },
    });
    expect(res.status).toBe(422);
    expect(res.body.detail).toEqual(
      expect.arrayContaining([
        expect.objectContaining({ loc: ['body', 'name'], type: 'string_too_long' }),
        expect.objectContaining({ loc: ['body', 'group_id'], type: 'string_too_long' }),
      ]),
    );
    const empty = await api('/api/v1/chat/rooms', { token, json: { name: '', group_id: '' } });
    expect(empty.status).toBe(422);
    expect(empty.body.detail.map((d: any) => [d.loc, d.type])).toEqual(
      expect.arrayContaining([
        [['body', 'name'], 'string_too_short'],
        [['body', 'group_id'], 'string_too_short'],
      ]),
    );
    const missing = await api('/api/v1/chat/rooms', { token, json: { extra: 1 } });
    expect(missing.status).toBe(422);
    expect(missing.body.detail.map((d: any) => [d.loc, d.type])).toEqual(
      expect.arrayContaining([
        [['body', 'name'], 'missing'],
        [['body', 'group_id'], 'missing'],
        [['body', 'extra'], 'extra_forbidden'],
      ]),
    );
  });

  it('refuses NUL in a name with 422 value_error', async () => {
    const res = await api('/api/v1/chat/rooms', { token, json: { name: 'a\u0000b', group_id: group } });
    expect(res.status).toBe(422);
    expect(res.body.detail).toEqual([
      expect.objectContaining({ loc: ['body', 'name'], type: 'value_error' }),
    ]);
  });

  it('takes 500 member_ids (checked with acl in one request) and refuses 501', async () => {
    const many = await users(500);
    const ok = await api('/api/v1/chat/rooms', {
      token,
      json: { name: 'Big', group_id: group, member_ids: many.map((u) => u.id) },
    });
    expect(ok.status).toBe(201);
    expect(ok.body.data.members).toHaveLength(501);

    const tooMany = await api('/api/v1/chat/rooms', {
      token,
      json: { name: 'Too big', group_id: group, member_ids: [...many.map((u) => u.id), randomUUID()] },
    });
    expect(tooMany.status).toBe(422);
    expect(tooMany.body.detail).toEqual([
      expect.objectContaining({ loc: ['body', 'member_ids'], type: 'too_long' }),
    ]);
  });

  it('locates malformed and unknown member ids by index, every one of them', async () => {
    const [a] = await users(1);
    const [disabled] = await users(1, { status: 'DISABLED' });
    const unknown = randomUUID();
    const malformed = await api('/api/v1/chat/rooms', {
      token,
      json: { name: 'X', group_id: group, member_ids: [a.id, 'nope', 7] },
    });
    expect(malformed.status).toBe(422);
    expect(malformed.body.detail.map((d: any) => d.loc)).toEqual([
      ['body', 'member_ids', '1'],
      ['body', 'member_ids', '2'],
    ]);
    expect(malformed.body.detail[0].type).toBe('uuid_parsing');

    const res = await api('/api/v1/chat/rooms', {
      token,
      json: { name: 'X', group_id: group, member_ids: [a.id, unknown, disabled.id] },
    });
    expect(res.status).toBe(422);
    expect(res.body.detail).toEqual([
      expect.objectContaining({ loc: ['body', 'member_ids', '1'], type: 'value_error' }),
      expect.objectContaining({ loc: ['body', 'member_ids', '2'], type: 'value_error' }),
    ]);
  });

  it('checks document_id with documents: an existing one is kept, an unknown one is 422', async () => {
    const doc = await documents.create(owner);
    const ok = await api('/api/v1/chat/rooms', {
      token,
      json: { name: 'Doc', group_id: group, document_id: doc },
    });
    expect(ok.status).toBe(201);
    expect(ok.body.data.document_id).toBe(doc);
    const unknown = await api('/api/v1/chat/rooms', {
      token,
      json: { name: 'Doc', group_id: group, document_id: randomUUID() },
    });
    expect(unknown.status).toBe(422);
    expect(unknown.body.detail).toEqual([expect.objectContaining({ loc: ['body', 'document_id'] })]);
    const nulled = await api('/api/v1/chat/rooms', {
      token,
      json: { name: 'Doc', group_id: group, document_id: null },
    });
    expect(nulled.status).toBe(201);
    expect(nulled.body.data.document_id).toBeNull();
  });

  it('sets document_id to null when documents.document.deleted arrives', async () => {
    const doc = await documents.create(owner);
    const room = await createRoom(owner, group);
    const withDoc = await api('/api/v1/chat/rooms', {
      token,
      json: { name: 'D', group_id: group, document_id: doc },
    });
    await publishEvent('documents.document.deleted', { document_id: doc, uploaded_by: owner.id });
    const after = await eventually(
      async () => {
        const res = await api(`/api/v1/chat/rooms/${withDoc.body.data.id}`, { token });
        return res.body.data.document_id === null ? res : undefined;
      },
      isDefined,
      { timeoutMs: 8_000, orThrow: true },
    );
    expect(after.body.data.document_id).toBeNull();
    expect(room.document_id).toBeNull();
  });
});

describe('rooms, messages and unread counts (docs/api/contract.md §4.1)', () => {
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

  it('posts a message: 201 with {id, room_id, sender, body, mentions, edited_at, deleted_at, created_at}', async () => {
    const res = await api(`/api/v1/chat/rooms/${room.id}/messages`, {
      token: bob.token,
      json: { body: 'hi all' },
    });
    expect(res.status).toBe(201);
    expect(res.body).toMatchObject({ success: true, message: 'Message sent' });
    expect(Object.keys(res.body.data).sort()).toEqual([
      'body',
      'created_at',
      'deleted_at',
      'edited_at',
      'id',
      'mentions',
      'room_id',
      'sender',
    ]);
    expect(res.body.data).toMatchObject({
      room_id: room.id,
      sender: bob.id,
      body: 'hi all',
      mentions: [],
      edited_at: null,
      deleted_at: null,
    });
  });

  it('limits a message body to 1..4000 characters', async () => {
    const ok = await api(`/api/v1/chat/rooms/${room.id}/messages`, {
      token: bob.token,
      json: { body: 'x'.repeat(4000) },
    });
    expect(ok.status).toBe(201);
    const one = await api(`/api/v1/chat/rooms/${room.id}/messages`, {
      token: bob.token,
      json: { body: 'x' },
    });
    expect(one.status).toBe(201);
    const long = await api(`/api/v1/chat/rooms/${room.id}/messages`, {
      token: bob.token,
      json: { body: 'x'.repeat(4001) },
    });
    expect(long.status).toBe(422);
    expect(long.body.detail[0]).toMatchObject({ loc: ['body', 'body'], type: 'string_too_long' });
    const multipart = new FormData();
    multipart.append('body', 'x');
    const form = await api(`/api/v1/chat/rooms/${room.id}/messages`, { token: bob.token, multipart });
    expect(form.status).toBe(415);
    const empty = await api(`/api/v1/chat/rooms/${room.id}/messages`, {
      token: bob.token,
      json: { body: '' },
    });
    expect(empty.status).toBe(422);
    expect(empty.body.detail[0]).toMatchObject({ loc: ['body', 'body'], type: 'string_too_short' });
  });

  it('counts unread messages by others only, and the read marker only moves forward', async () => {
    const fresh = await createRoom(alice, group, [bob.id]);
    await post(fresh.id, bob, 'one');
    await post(fresh.id, bob, 'two');
    await post(fresh.id, alice, 'mine');
    const aliceView = await api(`/api/v1/chat/rooms/${fresh.id}`, { token: alice.token });
    expect(aliceView.body.data.unread_count).toBe('2');
    const bobView = await api(`/api/v1/chat/rooms/${fresh.id}`, { token: bob.token });
    expect(bobView.body.data.unread_count).toBe('1');

    const read = await api(`/api/v1/chat/rooms/${fresh.id}/read`, { token: alice.token, method: 'POST' });
    expect(read.status).toBe(200);
    expect(read.body.data.unread_count).toBe('0');
    const marker = read.body.data.members.find((m: any) => m.user === alice.id).last_read_at;
    expect(marker).toMatch(/Z$/);

    await post(fresh.id, bob, 'three');
    const after = await api(`/api/v1/chat/rooms/${fresh.id}`, { token: alice.token });
    expect(after.body.data.unread_count).toBe('1');

    // Concurrent reads: the marker never goes back.
    await Promise.all(
      Array.from({ length: 5 }, () =>
        api(`/api/v1/chat/rooms/${fresh.id}/read`, { token: alice.token, method: 'POST' }),
      ),
    );
    const [row] = await chatDb<{ last_read_at: Date }>(
      `SELECT last_read_at FROM chat_room_members WHERE room_id = $1 AND user_id = $2`,
      [fresh.id, alice.id],
    );
    expect(row.last_read_at.getTime()).toBeGreaterThanOrEqual(new Date(marker).getTime());
    // Forcing the marker into the future, a new read leaves it there.
    await chatDb(
      `UPDATE chat_room_members SET last_read_at = now() + interval '1 hour' WHERE room_id = $1 AND user_id = $2`,
      [fresh.id, alice.id],
    );
    const [future] = await chatDb<{ last_read_at: Date }>(
      `SELECT last_read_at FROM chat_room_members WHERE room_id = $1 AND user_id = $2`,
      [fresh.id, alice.id],
    );
    await api(`/api/v1/chat/rooms/${fresh.id}/read`, { token: alice.token, method: 'POST' });
    const [kept] = await chatDb<{ last_read_at: Date }>(
      `SELECT last_read_at FROM chat_room_members WHERE room_id = $1 AND user_id = $2`,
      [fresh.id, alice.id],
    );
    expect(kept.last_read_at.getTime()).toBe(future.last_read_at.getTime());
  });

  it("lists the caller's rooms with unread counts per room, cursor pages, enveloped", async () => {
    const g = groupId();
    const [me, other] = await users(2, { groups: [g] });
    const rooms: Record<string, any>[] = [];
    for (let i = 0; i < 3; i++) rooms.push(await createRoom(me, g, [other.id], `room-${i}`));
    await post(rooms[0].id, other);
    await post(rooms[0].id, other);
    await post(rooms[2].id, other);
    await post(rooms[2].id, me);
    const first = await api('/api/v1/chat/rooms?page_size=2', { token: me.token });
    expect(first.status).toBe(200);
    expect(first.body).toMatchObject({ success: true, message: 'Rooms' });
    expect(first.body.data.results.map((r: any) => [r.name, r.unread_count])).toEqual([
      ['room-2', '1'],
      ['room-1', '0'],
    ]);
    expect(first.body.data.previous).toBeNull();
    const next = new URL(first.body.data.next);
    const second = await api(`${next.pathname}${next.search}`, { token: me.token });
    expect(second.body.data.results.map((r: any) => [r.name, r.unread_count])).toEqual([['room-0', '2']]);
    expect(second.body.data.next).toBeNull();

    const outsiderList = await api('/api/v1/chat/rooms', { token: outsider.token });
    expect(outsiderList.body.data.results.find((r: any) => r.id === rooms[0].id)).toBeUndefined();

    const badSize = await api('/api/v1/chat/rooms?page_size=101', { token: me.token });
    expect(badSize.status).toBe(422);
    expect(badSize.body.detail[0].loc).toEqual(['query', 'page_size']);
    const badCursor = await api('/api/v1/chat/rooms?cursor=forged', { token: me.token });
    expect(badCursor.status).toBe(422);
    expect(badCursor.body.detail[0].loc).toEqual(['query', 'cursor']);
  });

  it('lists messages newest first with cursor pages', async () => {
    const fresh = await createRoom(alice, group, [bob.id]);
    for (const body of ['m1', 'm2', 'm3']) await post(fresh.id, bob, body);
    const page = await api(`/api/v1/chat/rooms/${fresh.id}/messages?page_size=2`, { token: alice.token });
    expect(page.status).toBe(200);
    expect(page.body.data.results.map((m: any) => m.body)).toEqual(['m3', 'm2']);
    const next = new URL(page.body.data.next);
    const rest = await api(`${next.pathname}${next.search}`, { token: alice.token });
    expect(rest.body.data.results.map((m: any) => m.body)).toEqual(['m1']);
  });

  it('answers 404 to a non-member for the room and everything under it', async () => {
    const base = `/api/v1/chat/rooms/${room.id}`;
    const t = outsider.token;
    const answers = await Promise.all([
      api(base, { token: t }),
      api(`${base}/messages`, { token: t }),
      api(`${base}/messages`, { token: t, json: { body: 'x' } }),
      api(`${base}/read`, { token: t, method: 'POST' }),
      api(`${base}/members`, { token: t, json: { member_ids: [outsider.id] } }),
      api(`${base}/members/${bob.id}`, { token: t, method: 'DELETE' }),
      api(`${base}/deactivate`, { token: t, method: 'POST' }),
      api(`/api/v1/chat/rooms/${randomUUID()}`, { token: t }),
    ]);
    for (const res of answers) {
      expect(res.status).toBe(404);
      expect(res.body.code).toBe('not_found');
    }
    const badId = await api('/api/v1/chat/rooms/not-a-uuid', { token: t });
    expect(badId.status).toBe(422);
    expect(badId.body.detail[0].loc).toEqual(['path', 'id']);
  });

  it('lets ADMINs add and remove members; a MEMBER gets 403 and may only leave', async () => {
    const fresh = await createRoom(alice, group, [bob.id]);
    const denied = await api(`/api/v1/chat/rooms/${fresh.id}/members`, {
      token: bob.token,
      json: { member_ids: [carol.id] },
    });
    expect(denied.status).toBe(403);
    const added = await api(`/api/v1/chat/rooms/${fresh.id}/members`, {
      token: alice.token,
      json: { member_ids: [carol.id, carol.id] },
    });
    expect(added.status).toBe(200);
    expect(added.body.message).toBe('Members added');
    expect(added.body.data.members.map((m: any) => m.user).sort()).toEqual(
      [alice.id, bob.id, carol.id].sort(),
    );
    const unknown = await api(`/api/v1/chat/rooms/${fresh.id}/members`, {
      token: alice.token,
      json: { member_ids: [randomUUID()] },
    });
    expect(unknown.status).toBe(422);
    expect(unknown.body.detail[0].loc).toEqual(['body', 'member_ids', '0']);
    const empty = await api(`/api/v1/chat/rooms/${fresh.id}/members`, {
      token: alice.token,
      json: { member_ids: [] },
    });
    expect(empty.status).toBe(422);
    expect(empty.body.detail[0]).toMatchObject({ loc: ['body', 'member_ids'], type: 'too_short' });

    const bobRemovesCarol = await api(`/api/v1/chat/rooms/${fresh.id}/members/${carol.id}`, {
      token: bob.token,
      method: 'DELETE',
    });
    expect(bobRemovesCarol.status).toBe(403);
    const removed = await api(`/api/v1/chat/rooms/${fresh.id}/members/${carol.id}`, {
      token: alice.token,
      method: 'DELETE',
    });
    expect(removed.status).toBe(200);
    expect(removed.body.data.members.map((m: any) => m.user)).not.toContain(carol.id);
    const again = await api(`/api/v1/chat/rooms/${fresh.id}/members/${carol.id}`, {
      token: alice.token,
      method: 'DELETE',
    });
    expect(again.status).toBe(404);
    const carolView = await api(`/api/v1/chat/rooms/${fresh.id}`, { token: carol.token });
    expect(carolView.status).toBe(404);
    const bobLeaves = await api(`/api/v1/chat/rooms/${fresh.id}/members/${bob.id}`, {
      token: bob.token,
      method: 'DELETE',
    });
    expect(bobLeaves.status).toBe(200);
  });

  it('deactivates (ADMINs only); then new messages are 409 room_inactive', async () => {
    const fresh = await createRoom(alice, group, [bob.id]);
    const denied = await api(`/api/v1/chat/rooms/${fresh.id}/deactivate`, {
      token: bob.token,
      method: 'POST',
    });
    expect(denied.status).toBe(403);
    const res = await api(`/api/v1/chat/rooms/${fresh.id}/deactivate`, {
      token: alice.token,
      method: 'POST',
    });
    expect(res.status).toBe(200);
    expect(res.body.data.is_active).toBe(false);
    const msg = await api(`/api/v1/chat/rooms/${fresh.id}/messages`, {
      token: bob.token,
      json: { body: 'late' },
    });
    expect(msg.status).toBe(409);
    expect(msg.body).toEqual({ detail: expect.any(String), code: 'room_inactive' });
    const history = await api(`/api/v1/chat/rooms/${fresh.id}/messages`, { token: bob.token });
    expect(history.status).toBe(200);
    const add = await api(`/api/v1/chat/rooms/${fresh.id}/members`, {
      token: alice.token,
      json: { member_ids: [carol.id] },
    });
    expect(add.status).toBe(409);
    expect(add.body.code).toBe('room_inactive');
  });
});

describe('POST /api/v1/chat/rooms/direct', () => {
  it('creates a DIRECT room of two (201), then returns the same room (200)', async () => {
    const [a, b] = await users(2);
    const first = await api('/api/v1/chat/rooms/direct', { token: a.token, json: { user_id: b.id } });
    expect(first.status).toBe(201);
    expect(first.body.data.room_type).toBe('DIRECT');
    expect(first.body.data.members.map((m: any) => m.user).sort()).toEqual([a.id, b.id].sort());
    const second = await api('/api/v1/chat/rooms/direct', { token: b.token, json: { user_id: a.id } });
    expect(second.status).toBe(200);
    expect(second.body.data.id).toBe(first.body.data.id);
  });

  it('keeps a DIRECT room to its two users: adding or removing members is 409 room_is_direct', async () => {
    const [a, b, c] = await users(3);
    const room = (await api('/api/v1/chat/rooms/direct', { token: a.token, json: { user_id: b.id } })).body
      .data;
    const add = await api(`/api/v1/chat/rooms/${room.id}/members`, {
      token: a.token,
      json: { member_ids: [c.id] },
    });
    expect(add.status).toBe(409);
    expect(add.body.code).toBe('room_is_direct');
    const remove = await api(`/api/v1/chat/rooms/${room.id}/members/${b.id}`, {
      token: a.token,
      method: 'DELETE',
    });
    expect(remove.status).toBe(409);
    expect(remove.body.code).toBe('room_is_direct');
  });

  it('ends 10 simultaneous creations for one pair in one room', async () => {
    const [a, b] = await users(2);
    const answers = await Promise.all(
      Array.from({ length: 10 }, (_, i) =>
        api('/api/v1/chat/rooms/direct', {
          token: i % 2 ? a.token : b.token,
          json: { user_id: i % 2 ? b.id : a.id },
        }),
      ),
    );
    expect(answers.map((r) => r.status).sort()).toEqual([200, 200, 200, 200, 200, 200, 200, 200, 200, 201]);
    expect(new Set(answers.map((r) => r.body.data.id)).size).toBe(1);
  });

  it('refuses oneself, an unknown user and a malformed id with 422 at ["body","user_id"]', async () => {
    const a = await user();
    for (const userId of [a.id, randomUUID(), 'x']) {
      const res = await api('/api/v1/chat/rooms/direct', { token: a.token, json: { user_id: userId } });
      expect(res.status).toBe(422);
      expect(res.body.detail[0].loc).toEqual(['body', 'user_id']);
    }
  });
});
