/**
 * Websocket upgrades through the gateway.
 * The gateway runs in-process against the fake upstream of ./support/gateway-fixture.
 */
import { once } from 'node:events';
import { type IncomingMessage } from 'node:http';
import { WebSocket } from 'ws';
import { bearer, main, mint, token, useGatewayFixture } from './support/gateway-fixture';

useGatewayFixture();

// ------------------------------------------------------------------ websockets

describe('websocket upgrades', () => {
  const wsUrl = (path: string) => `ws://127.0.0.1:${main.gateway.port}${path}`;

  it('lets an upgrade with a ?ticket= through to chat-notifications, which redeems it', async () => {
    const socket = new WebSocket(wsUrl(`/api/v1/ws?ticket=single-use-ticket`), {
      headers: { 'x-request-id': 'ws-1' },
    });
    const [greeting] = (await once(socket, 'message')) as [Buffer];
    expect(greeting.toString()).toBe('hello ws-1');
    socket.send('ping');
    const [echo] = (await once(socket, 'message')) as [Buffer];
    expect(echo.toString()).toBe('echo:ping');
    socket.close();
    await once(socket, 'close');
  });

  it('proxies an upgrade with a token in the Authorization header', async () => {
    const socket = new WebSocket(wsUrl('/api/v1/ws'), { headers: bearer(token) });
    await once(socket, 'open');
    socket.send('x'.repeat(100_000));
    const messages: string[] = [];
    socket.on('message', (data: Buffer) => messages.push(data.toString()));
    await new Promise<void>((resolve) => {
      const poll = setInterval(
        () => messages.some((m) => m.startsWith('echo:')) && (clearInterval(poll), resolve()),
        10,
      );
    });
    expect(messages.find((m) => m.startsWith('echo:'))).toHaveLength(5 + 100_000);
    socket.close();
    await once(socket, 'close');
  });

  async function refusedStatus(
    url: string,
    headers: Record<string, string> = {},
  ): Promise<{ status: number; body: string }> {
    const socket = new WebSocket(url, { headers });
    socket.on('error', () => undefined);
    const [, res] = (await once(socket, 'unexpected-response')) as [unknown, IncomingMessage];
    const chunks: Buffer[] = [];
    for await (const chunk of res) chunks.push(chunk as Buffer);
    socket.terminate();
    return { status: res.statusCode ?? 0, body: Buffer.concat(chunks).toString() };
  }

  it('refuses an upgrade without a token with an HTTP 401 on the socket', async () => {
    const refused = await refusedStatus(wsUrl('/api/v1/ws'));
    expect(refused.status).toBe(401);
    expect(JSON.parse(refused.body)).toMatchObject({ code: 'not_authenticated' });
  });

  it('refuses an upgrade with an expired token', async () => {
    const refused = await refusedStatus(wsUrl('/api/v1/ws'), bearer(await mint({ expiresIn: -10 })));
    expect(refused.status).toBe(401);
    expect(JSON.parse(refused.body)).toMatchObject({ code: 'token_expired' });
  });

  it('no longer accepts a token in the access_token query parameter (it would be logged)', async () => {
    const refused = await refusedStatus(wsUrl(`/api/v1/ws?access_token=${token}`));
    expect(refused.status).toBe(401);
    expect(JSON.parse(refused.body)).toMatchObject({ code: 'not_authenticated' });
  });

  it('lets a ?ticket= through to chat-notifications only, not to another app', async () => {
    const refused = await refusedStatus(wsUrl('/content/ws?ticket=single-use-ticket'));
    expect(refused.status).toBe(401);
    expect(JSON.parse(refused.body)).toMatchObject({ code: 'not_authenticated' });
  });

  it('refuses an upgrade to an unknown segment with 404', async () => {
    const refused = await refusedStatus(wsUrl('/nope/ws'), bearer(token));
    expect(refused.status).toBe(404);
  });
});
