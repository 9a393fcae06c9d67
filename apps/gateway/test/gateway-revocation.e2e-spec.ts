/**
 * The gateway's own refusal of revoked tokens (docs/api/acl.md, "Revocation within seconds"),
 * apart from the apps': it hears `acl.user.tokens-revoked` over NATS and refuses the user's older
 * tokens before forwarding, and ends their websocket tunnels with 4401. The gateway runs
 * in-process against the fake upstream of ./support/gateway-fixture (which never refuses a
 * token itself), with a stand-in acl on the real NATS: it answers `acl.users.token-versions`
 * and publishes the event as acl's outbox would.
 */
import { once } from 'node:events';
import { randomUUID } from 'node:crypto';
import { connect, type NatsConnection, type Subscription } from '@nats-io/transport-node';
import { eventually, testEnv } from '@media/testing';
import { WebSocket } from 'ws';
import type { RunningGateway } from '../src/start';
import { bearer, boot, call, lastSeen, mint, useGatewayFixture } from './support/gateway-fixture';

useGatewayFixture();

let nc: NatsConnection;
let responder: Subscription;
let gateway: { gateway: RunningGateway; url: string };

beforeAll(async () => {
  nc = await connect({ servers: testEnv.natsUrl });
  // The stand-in acl: nothing revoked before the gateway started.
  responder = nc.subscribe('acl.users.token-versions', {
    callback: (_error, msg) => {
      msg.respond(JSON.stringify({ versions: [], at: new Date().toISOString() }));
    },
  });
  gateway = await boot({ NATS_URL: testEnv.natsUrl, RATE_LIMIT_PER_MINUTE: '100000' });
});

afterAll(async () => {
  await gateway.gateway.close();
  responder.unsubscribe();
  await nc.close();
});

/** Publishes what acl's outbox publishes when `userId`'s version becomes `ver`. */
function revoke(userId: string, ver: number): void {
  const event = {
    id: randomUUID(),
    subject: 'acl.user.tokens-revoked',
    occurred_at: new Date().toISOString(),
    data: { user_id: userId, ver },
    meta: {},
  };
  nc.publish('acl.user.tokens-revoked', JSON.stringify(event));
}

describe('the gateway (with a stand-in acl on NATS)', () => {
  it('refuses a revoked token itself with 401 token_revoked, without forwarding it; other users go on', async () => {
    const sub = randomUUID();
    const revoked = await mint({ sub });
    const other = await mint();
    expect((await call(gateway.url, '/content/api/v1/things', { headers: bearer(revoked) })).status).toBe(
      200,
    );
    revoke(sub, 1);
    let requestId = '';
    const refused = await eventually(
      () => {
        requestId = randomUUID();
        return call(gateway.url, '/content/api/v1/things', {
          headers: { ...bearer(revoked), 'x-request-id': requestId },
        });
      },
      (res) => res.status === 401,
    );
    expect([refused.status, refused.json()]).toEqual([
      401,
      { detail: expect.any(String), code: 'token_revoked' },
    ]);
    expect(refused.headers['www-authenticate']).toBe('Bearer');
    expect(lastSeen(requestId)).toBeUndefined();
    expect((await call(gateway.url, '/content/api/v1/things', { headers: bearer(other) })).status).toBe(200);
  });

  it('closes the websocket tunnel of a revoked token with 4401, and refuses its next upgrade', async () => {
    const sub = randomUUID();
    const revoked = await mint({ sub });
    const socket = new WebSocket(`ws://127.0.0.1:${gateway.gateway.port}/api/v1/ws`, {
      headers: bearer(revoked),
    });
    await once(socket, 'open');
    const closed = once(socket, 'close');
    revoke(sub, 2);
    const [code] = (await closed) as [number, Buffer];
    expect(code).toBe(4401);
    const again = new WebSocket(`ws://127.0.0.1:${gateway.gateway.port}/api/v1/ws`, {
      headers: bearer(revoked),
    });
    const [, response] = (await once(again, 'unexpected-response')) as [unknown, { statusCode: number }];
    expect(response.statusCode).toBe(401);
  });
});
