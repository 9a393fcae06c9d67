/**
 * NATS going away and coming back: readiness turns 503 while the broker is
 * down, requests fail fast with 503, and the app reconnects by itself — however long it took.
 * Uses a private nats-server on its own port, so the shared one is left alone.
 */
import { mkdtempSync, rmSync } from 'node:fs';
import { tmpdir } from 'node:os';
import { join } from 'node:path';
import type { ClientProxy } from '@nestjs/microservices';
import type { NatsConnection } from '@nats-io/transport-node';
import { call, eventually, freePort, mintToken, startNats, type PrivateNats } from '@media/testing';
import { NATS_CLIENT } from '@media/messaging';
import { bootFixture, type BootedFixture } from './fixture/boot';

/** nats.js gives up after this many reconnect attempts unless told otherwise. */
const NATS_JS_DEFAULT_ATTEMPTS = 10;

/** The app's two NATS connections: its listener's and its client's. */
async function natsConnections(fixture: BootedFixture): Promise<NatsConnection[]> {
  const client = fixture.app.get<ClientProxy>(NATS_CLIENT);
  await client.connect();
  const [listener] = fixture.app.getMicroservices();
  return [listener.unwrap<NatsConnection>(), client.unwrap<NatsConnection>()];
}

/** Counts a connection's reconnect attempts: nats.js reports each dial as `reconnecting`. */
function reconnectAttempts(nc: NatsConnection): { count: number } {
  const attempts = { count: 0 };
  void (async () => {
    for await (const status of nc.status()) if (status.type === 'reconnecting') attempts.count += 1;
  })();
  return attempts;
}

describe('when NATS goes down and comes back', () => {
  let port: number;
  let store: string;
  let server: PrivateNats | undefined;
  let fixture: BootedFixture;

  /** The same port and store each time, as a broker coming back after an outage would. */
  const restartNats = async () => {
    server = await startNats({ port, storeDir: store });
  };
  const stopNats = async () => {
    await server?.stop();
    server = undefined;
  };

  beforeAll(async () => {
    port = await freePort();
    store = mkdtempSync(join(tmpdir(), 'nats-outage-'));
    await restartNats();
    fixture = await bootFixture({ NATS_URL: `nats://127.0.0.1:${port}` });
  });

  afterAll(async () => {
    await fixture?.stop();
    await stopNats();
    rmSync(store, { recursive: true, force: true });
  });

  it('is not ready while NATS is down, answers 503 fast, and recovers after the outage', async () => {
    const token = mintToken(fixture.keys, { permissions: ['*'] });
    const ready = () => call(fixture.base, '/health/ready').then((r) => r.status);
    expect(await ready()).toBe(200);
    const connections = await natsConnections(fixture);
    const attempts = connections.map(reconnectAttempts);

    await stopNats();
    expect(await eventually(ready, (status) => status === 503, { timeoutMs: 5_000, intervalMs: 200 })).toBe(
      503,
    );
    const down = await call(fixture.base, '/health/ready');
    expect(down.body.details.nats.status).toBe('down');
    expect(down.body.details.database.status).toBe('up');
    const started = Date.now();
    const res = await call(fixture.base, '/api/v1/echo/hello', { token });
    expect(res.status).toBe(503);
    expect(res.body.code).toBe('upstream_unavailable');
    expect(Date.now() - started).toBeLessThan(2_500);

    // An outage longer than nats.js's default reconnect budget: both connections try past it.
    const pastBudget = () => attempts.every((a) => a.count > NATS_JS_DEFAULT_ATTEMPTS);
    expect(await eventually(pastBudget, (past) => past, { timeoutMs: 40_000, intervalMs: 200 })).toBe(true);
    await restartNats();
    expect(await eventually(ready, (status) => status === 200, { timeoutMs: 10_000, intervalMs: 200 })).toBe(
      200,
    );
    // Ready means both connections are back; a round trip on each makes sure the server has also
    // applied the subscriptions they re-sent, so the first request is answered.
    for (const nc of connections) await nc.flush();
    const echoed = await call(fixture.base, '/api/v1/echo/again', { token });
    expect(echoed.status).toBe(200);
    expect(echoed.body.echoed).toBe('again');
  }, 60_000);
});
