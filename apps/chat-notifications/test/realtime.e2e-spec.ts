/**
 * Live push over websockets: authenticated at the upgrade (Authorization header or a
 * single-use ticket), through the gateway; `chat.message` to room members and `notification`
 * to its recipient only; fan-out across replicas over NATS; closed when the token expires.
 */
import { once } from 'node:events';
import {
  api,
  ask,
  chatDb,
  closeNats,
  connectWs,
  createRoom,
  groupId,
  post,
  refusedUpgrade,
  startReplica,
  user,
  users,
  type Client,
} from './support';

const open: Client[] = [];
async function ws(options: Parameters<typeof connectWs>[0]): Promise<Client> {
  const client = await connectWs(options);
  open.push(client);
  return client;
}

afterEach(async () => {
  await Promise.all(open.splice(0).map((c) => c.close()));
});

afterAll(async () => {
  await closeNats();
});

async function ticketFor(token: string): Promise<string> {
  const res = await api('/api/v1/ws/tickets', { token, method: 'POST' });
  expect(res.status).toBe(201);
  expect(res.body).toMatchObject({
    success: true,
    data: { ticket: expect.any(String), expires_at: expect.any(String) },
  });
  const ttl = new Date(res.body.data.expires_at).getTime() - Date.now();
  expect(ttl).toBeLessThanOrEqual(30_000);
  return res.body.data.ticket as string;
}

describe('upgrade authentication', () => {
  it('accepts an Authorization header through the gateway', async () => {
    const me = await user();
    const client = await ws({ token: me.token });
    expect(client.socket.readyState).toBe(1);
  });

  it('accepts a single-use ticket once, through the gateway; a second use is 401', async () => {
    const me = await user();
    const ticket = await ticketFor(me.token);
    const client = await ws({ ticket });
    expect(client.socket.readyState).toBe(1);
    const again = await refusedUpgrade({ ticket });
    expect(again.status).toBe(401);
    expect(again.body).toMatchObject({ code: 'token_invalid' });
  });

  it('refuses an expired ticket and an unknown one with 401', async () => {
    const me = await user();
    const ticket = await ticketFor(me.token);
    await chatDb(`UPDATE ws_tickets SET expires_at = now() - interval '1 second' WHERE user_id = $1`, [
      me.id,
    ]);
    expect((await refusedUpgrade({ ticket })).status).toBe(401);
    expect((await refusedUpgrade({ ticket: 'made-up' })).status).toBe(401);
  });

  it('needs a token to issue a ticket', async () => {
    const res = await api('/api/v1/ws/tickets', { method: 'POST' });
    expect(res.status).toBe(401);
  });

  it('refuses a missing, bad, expired or URL-borne token with 401 and the contract body', async () => {
    const me = await user();
    const none = await refusedUpgrade();
    expect(none).toMatchObject({ status: 401, body: { code: 'not_authenticated' } });
    const bad = await refusedUpgrade({ token: `${me.token}x` });
    expect(bad).toMatchObject({ status: 401, body: { code: 'token_invalid' } });
    const expired = await refusedUpgrade({ token: me.mint({ expiresIn: -10 }) });
    expect(expired).toMatchObject({ status: 401, body: { code: 'token_expired' } });
    const none2 = await refusedUpgrade({ query: `?access_token=${me.token}` });
    expect(none2).toMatchObject({ status: 401, body: { code: 'not_authenticated' } });
  });

  it('refuses bad tokens at the app itself too (not only at the gateway)', async () => {
    const replica = await startReplica();
    try {
      const me = await user();
      const expired = await refusedUpgrade({ base: replica.url, token: me.mint({ expiresIn: -10 }) });
      expect(expired).toMatchObject({ status: 401, body: { code: 'token_expired' } });
      const forged = await refusedUpgrade({ base: replica.url, token: me.mint({ alg: 'HS256-public' }) });
      expect(forged).toMatchObject({ status: 401, body: { code: 'token_invalid' } });
    } finally {
      await replica.stop();
    }
  });

  it('closes the socket when the token it was opened with expires', async () => {
    const me = await user();
    const client = await ws({ token: me.mint({ expiresIn: 2 }) });
    const [code] = (await once(client.socket, 'close')) as [number];
    expect(code).toBe(4401);
  });
});

describe('pushes', () => {
  it('pushes chat.message to every member, and nothing to a non-member', async () => {
    const g = groupId();
    const [alice, bob, eve] = await users(3, { groups: [g] });
    const room = await createRoom(alice, g, [bob.id]);
    const [a, b, e] = await Promise.all([
      ws({ token: alice.token }),
      ws({ token: bob.token }),
      ws({ token: eve.token }),
    ]);
    const message = await post(room.id, alice, 'live');
    for (const client of [a, b]) {
      const frame = await client.next((f) => f.event === 'chat.message' && f.data.id === message.id);
      expect(frame.data).toEqual(message);
    }
    // Eve's notification-free socket stays silent (wait for the others' notifications first).
    await b.next((f) => f.event === 'notification' && f.data.data.message_id === message.id);
    // A later push to Eve: once it arrives, anything sent to her before it would have too.
    await ask('notifications.send', {
      recipient_ids: [eve.id],
      notification_type: 'marker',
      title: 'marker',
    });
    await e.next((f) => f.event === 'notification' && f.data.title === 'marker');
    expect(e.frames.map((f) => f.data.title)).toEqual(['marker']);
  });

  it('pushes a notification to its recipient only, unless the websocket channel is off', async () => {
    const [me, other, muted] = await users(3);
    const [mine, theirs, mutedWs] = await Promise.all([
      ws({ token: me.token }),
      ws({ token: other.token }),
      ws({ token: muted.token }),
    ]);
    await api('/api/v1/notifications/preferences', {
      token: muted.token,
      method: 'PUT',
      json: { notification_type: '*', channel: 'websocket', enabled: false },
    });
    const reply = await ask('notifications.send', {
      recipient_ids: [me.id, muted.id],
      notification_type: 'ping',
      title: 'for me',
    });
    expect(reply.response).toEqual({ delivered: 2 });
    const frame = await mine.next((f) => f.event === 'notification');
    expect(frame.data).toMatchObject({ recipient_id: me.id, title: 'for me', notification_type: 'ping' });
    // A later push to both (the muted user allows this one type): once each arrives, anything
    // sent to them before it would have too.
    await api('/api/v1/notifications/preferences', {
      token: muted.token,
      method: 'PUT',
      json: { notification_type: 'marker', channel: 'websocket', enabled: true },
    });
    await ask('notifications.send', {
      recipient_ids: [other.id, muted.id],
      notification_type: 'marker',
      title: 'marker',
    });
    for (const socket of [theirs, mutedWs]) {
      await socket.next((f) => f.event === 'notification' && f.data.title === 'marker');
      expect(socket.frames.map((f) => f.data.title)).toEqual(['marker']);
    }
  });

  it('reaches a client connected to another replica (fan-out over NATS)', async () => {
    const replica = await startReplica();
    try {
      const g = groupId();
      const [alice, bob] = await users(2, { groups: [g] });
      const room = await createRoom(alice, g, [bob.id]);
      // Bob is on the second replica directly (with a ticket issued by the first), Alice posts
      // through the gateway, which reaches the first.
      const ticket = await ticketFor(bob.token);
      const onReplica = await ws({ base: replica.url, ticket });
      const message = await post(room.id, alice, 'across replicas');
      const frame = await onReplica.next((f) => f.event === 'chat.message');
      expect(frame.data).toEqual(message);
    } finally {
      await replica.stop();
    }
  });
});
