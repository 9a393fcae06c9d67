/**
 * Idempotency keys on chat's creates: rooms, direct rooms and messages (docs/api/contract.md
 * §7.1); the whole behaviour is in commercial's idempotency tests, the same platform piece.
 */
import { randomUUID } from 'node:crypto';
import { expectReplayOf, idempotencyKey, keyReused } from '@media/testing';
import { api, chatDb, createRoom, groupId, user, users } from './support';

describe('Idempotency-Key on chat creates', () => {
  it('creates one room for a retried create and replays the answer', async () => {
    const group = groupId();
    const owner = await user({ groups: [group] });
    const token = owner.mint({ groups: [group] });
    const headers = idempotencyKey();
    const json = { name: `Idem ${randomUUID()}`, group_id: group, member_ids: [] };
    const first = await api('/api/v1/chat/rooms', { token, json, headers });
    expect(first.status).toBe(201);
    expectReplayOf(await api('/api/v1/chat/rooms', { token, json, headers }), first);
    expect(await chatDb(`SELECT count(*)::int AS n FROM chat_rooms WHERE name = $1`, [json.name])).toEqual([
      { n: 1 },
    ]);
  });

  it('posts one message for a retried post; another body with the key is 422', async () => {
    const group = groupId();
    const owner = await user({ groups: [group] });
    const room = await createRoom(owner, group);
    const path = `/api/v1/chat/rooms/${room.id}/messages`;
    const headers = idempotencyKey();
    const first = await api(path, { token: owner.token, json: { body: 'once' }, headers });
    expect(first.status).toBe(201);
    expectReplayOf(await api(path, { token: owner.token, json: { body: 'once' }, headers }), first);
    const other = await api(path, { token: owner.token, json: { body: 'twice' }, headers });
    expect(other.status).toBe(422);
    expect(other.body).toEqual(keyReused());
    expect(
      await chatDb(`SELECT count(*)::int AS n FROM chat_messages WHERE room_id = $1`, [room.id]),
    ).toEqual([{ n: 1 }]);
  });

  it('replays a direct room opened with a key', async () => {
    const [me, them] = await users(2);
    const headers = idempotencyKey();
    const first = await api('/api/v1/chat/rooms/direct', {
      token: me.token,
      json: { user_id: them.id },
      headers,
    });
    expect(first.status).toBe(201);
    expectReplayOf(
      await api('/api/v1/chat/rooms/direct', { token: me.token, json: { user_id: them.id }, headers }),
      first,
    );
  });
});
