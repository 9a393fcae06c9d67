/**
 * chat-notifications' audit trail (CONTRACT §8.1): a room created with its members, a message
 * posted, edited and deleted (its body as [before, after]), a refused edit leaving nothing, and
 * the caller's notification preferences created and updated.
 */
import { recordedEntries, sealedEntries } from '@media/testing';
import { api, createRoom, groupId, post, system, user } from './support';

const db = () => system().databases['chat-notifications'];
const messagePath = (room: string, message: string) => `/api/v1/chat/rooms/${room}/messages/${message}`;

describe('the audit trail of chat-notifications', () => {
  it('records a room created, its members added, and a message posted, edited and deleted', async () => {
    const group = groupId();
    const owner = await user({ groups: [group] });
    const member = await user({ groups: [group] });
    const room = await createRoom(owner, group, [member.id], 'Audited room');
    const [created] = await sealedEntries(db(), { type: 'room', id: room.id }, 1);
    expect(created).toMatchObject({
      app: 'chat-notifications',
      action: 'room.created',
      actor: { type: 'user', id: owner.id },
      changes: { name: [null, 'Audited room'] },
    });
    const members = await sealedEntries(db(), { type: 'room.member', id: room.id }, 2);
    expect(members.map((m) => m.action)).toEqual(['room.member.added', 'room.member.added']);
    expect(members.map((m) => m.changes.user_id[1]).sort()).toEqual([owner.id, member.id].sort());

    const message = await post(room.id, member, 'first words');
    const edited = await api(messagePath(room.id, message.id), {
      token: member.token,
      method: 'PATCH',
      json: { body: 'second words' },
    });
    expect(edited.status).toBe(200);
    const refused = await api(messagePath(room.id, message.id), {
      token: owner.token,
      method: 'PATCH',
      json: { body: 'not mine' },
    });
    expect(refused.status).toBe(403);
    const removed = await api(messagePath(room.id, message.id), { token: member.token, method: 'DELETE' });
    expect(removed.status).toBe(204);

    const [sent, edit, deletion] = await sealedEntries(db(), { type: 'message', id: message.id }, 3);
    expect(sent).toMatchObject({ action: 'message.created', changes: { body: [null, 'first words'] } });
    expect(edit).toMatchObject({
      action: 'message.updated',
      actor: { type: 'user', id: member.id },
      changes: { body: ['first words', 'second words'] },
    });
    expect(deletion).toMatchObject({ action: 'message.deleted', changes: { body: ['second words', null] } });
    expect(await recordedEntries(db(), message.id)).toBe(3);
  });

  it('records the preferences a caller sets: created, then updated', async () => {
    const me = await user();
    const put = (enabled: boolean) =>
      api('/api/v1/notifications/preferences', {
        token: me.token,
        method: 'PUT',
        json: { notification_type: 'chat.message.created', enabled },
      });
    const first = await put(false);
    expect(first.status).toBe(200);
    expect((await put(true)).status).toBe(200);
    const id = first.body.data.preferences[0].id as string;
    const [created, updated] = await sealedEntries(db(), { type: 'notification.preference', id }, 2);
    expect(created).toMatchObject({
      action: 'notification.preference.created',
      actor: { type: 'user', id: me.id },
      changes: { enabled: [null, false], recipient_id: [null, me.id] },
    });
    expect(updated).toMatchObject({
      action: 'notification.preference.updated',
      changes: { enabled: [false, true] },
    });
  });
});
