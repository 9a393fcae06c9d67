/** docs/api/contract.md §6: on shutdown an app stops accepting but finishes the requests it is serving. */
import { Client } from 'undici';
import { call, eventually, mintToken } from '@media/testing';
import { stopApp } from '../src';
import { bootFixture } from './fixture/boot';
import { slowGate } from './fixture/fixture.app';

afterEach(() => slowGate.release());

it('finishes an in-flight request when the app is closed, then refuses new connections', async () => {
  const fixture = await bootFixture();
  const token = mintToken(fixture.keys, { permissions: ['*'] });
  try {
    const inFlight = call(fixture.base, '/api/v1/slow', { token });
    await slowGate.arrived();
    const closing = fixture.app.close();
    // The request is let go only once the app refuses new connections: it is answered while closing.
    const refused = await eventually(
      () =>
        call(fixture.base, '/health/live').then(
          () => false,
          () => true,
        ),
      (yes) => yes,
      10_000,
    );
    expect(refused).toBe(true);
    slowGate.release();
    const res = await inFlight;
    expect(res.status).toBe(200);
    expect(res.body).toEqual({ finished: true });
    await closing;
    await expect(call(fixture.base, '/health/live')).rejects.toThrow();
  } finally {
    slowGate.release();
    await fixture.stop().catch(() => undefined);
  }
});

it('answers readiness 503 as soon as the drain (SIGTERM) starts, while liveness stays 200', async () => {
  const fixture = await bootFixture();
  const token = mintToken(fixture.keys, { permissions: ['*'] });
  const { origin, pathname: prefix } = new URL(fixture.base);
  // A draining server accepts no new connection: the probes reuse keep-alive ones opened before.
  const [readyProbe, liveProbe] = [new Client(origin), new Client(origin)];
  const get = async (client: Client, path: string) => {
    const res = await client.request({ method: 'GET', path: `${prefix}${path}` });
    return { status: res.statusCode, body: (await res.body.json()) as Record<string, unknown> };
  };
  try {
    expect((await get(readyProbe, '/health/ready')).status).toBe(200);
    expect((await get(liveProbe, '/health/live')).status).toBe(200);
    // A request in flight keeps the drain going while the probes ask.
    const inFlight = call(fixture.base, '/api/v1/slow', { token });
    await slowGate.arrived();
    const stopping = stopApp(fixture.app, 10_000);

    const ready = await get(readyProbe, '/health/ready');
    expect(ready.status).toBe(503);
    expect(ready.body).toMatchObject({
      status: 'error',
      error: { shutdown: { status: 'down', message: 'draining' } },
    });
    expect(await get(liveProbe, '/health/live')).toEqual({ status: 200, body: { status: 'ok' } });

    slowGate.release();
    expect((await inFlight).status).toBe(200);
    await stopping;
  } finally {
    slowGate.release();
    await Promise.all([readyProbe.close(), liveProbe.close()]).catch(() => undefined);
    await fixture.stop().catch(() => undefined);
  }
});
