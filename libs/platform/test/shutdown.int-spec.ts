/** CONTRACT §6: on shutdown an app stops accepting but finishes the requests it is serving. */
import { call, mintToken } from '@media/testing';
import { bootFixture } from './fixture/boot';

it('finishes an in-flight request when the app is closed, then refuses new connections', async () => {
  const fixture = await bootFixture();
  const token = mintToken(fixture.keys, { permissions: ['*'] });
  try {
    const inFlight = call(fixture.base, '/api/v1/slow', { token });
    await new Promise((r) => setTimeout(r, 200));
    const closing = fixture.app.close();
    const res = await inFlight;
    expect(res.status).toBe(200);
    expect(res.body).toEqual({ finished: true });
    await closing;
    await expect(call(fixture.base, '/health/live')).rejects.toThrow();
  } finally {
    await fixture.stop().catch(() => undefined);
  }
});
