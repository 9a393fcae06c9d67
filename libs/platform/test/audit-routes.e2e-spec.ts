/**
 * Every app of the stack answers the audit trail's three routes (CONTRACT §8.3) where the
 * contract puts them, through the gateway: `/<prefix>/api/v1/audit`, `/api/v1/audit` for
 * chat-notifications (enveloped, as all of its answers), each needing `audit:read`. What they
 * answer, entry by entry and break by break, is libs/platform/test/audit.int-spec.ts.
 */
import { APPS, SERVICE_NAMES, type ServiceName } from '@media/contracts';
import { call, mintToken, requireApps } from '@media/testing';

const pathOf = (app: ServiceName) =>
  app === 'chat-notifications' ? '/api/v1/audit' : `/${APPS[app].prefix}/api/v1/audit`;

/** The answer's data: chat-notifications envelopes it. */
function dataOf(app: ServiceName, body: unknown): Record<string, unknown> {
  if (app !== 'chat-notifications') return body as Record<string, unknown>;
  expect(body).toEqual({ success: true, message: expect.any(String), data: expect.anything() });
  return (body as { data: Record<string, unknown> }).data;
}

describe.each(SERVICE_NAMES)('the audit routes of %s', (app) => {
  const token = () => mintToken(requireApps(app).keys, { permissions: ['audit:read'] });

  it('lists its sealed entries (a cursor page of its own)', async () => {
    const res = await call(requireApps(app).gatewayUrl, pathOf(app), { token: token() });
    expect(res.status).toBe(200);
    const page = dataOf(app, res.body);
    expect(Object.keys(page).sort()).toEqual(['next', 'previous', 'results']);
    expect(page.previous).toBeNull();
    for (const entry of page.results as { app: string }[]) expect(entry.app).toBe(app);
  });

  it('verifies its chain', async () => {
    const res = await call(requireApps(app).gatewayUrl, `${pathOf(app)}/verify`, { token: token() });
    expect(res.status).toBe(200);
    const verification = dataOf(app, res.body);
    expect(verification).toEqual({
      valid: true,
      entries: expect.any(Number),
      head: { seq: expect.any(Number), hash: expect.stringMatching(/^[0-9a-f]{64}$/) },
      // Null until acl has signed a first checkpoint of this app.
      checkpoint:
        verification.checkpoint === null ? null : expect.objectContaining({ seq: expect.any(Number) }),
      first_break: null,
    });
  });

  it('exports its chain as NDJSON', async () => {
    const res = await fetch(`${requireApps(app).gatewayUrl}${pathOf(app)}/export`, {
      headers: { authorization: `Bearer ${token()}` },
    });
    expect(res.status).toBe(200);
    expect(res.headers.get('content-type')).toBe('application/x-ndjson; charset=utf-8');
    const lines = (await res.text()).split('\n');
    expect(lines.pop()).toBe('');
    // Entry lines, and the checkpoint lines the running checkpoint job signed meanwhile.
    for (const line of lines) {
      const parsed = JSON.parse(line) as { app?: string; checkpoint?: { app: string }; jws?: string };
      if (parsed.checkpoint)
        expect(parsed).toEqual({ checkpoint: expect.objectContaining({ app }), jws: expect.any(String) });
      else expect(parsed).toEqual(expect.objectContaining({ app }));
    }
  });

  it('refuses a caller without audit:read', async () => {
    const res = await call(requireApps(app).gatewayUrl, pathOf(app), {
      token: mintToken(requireApps(app).keys, { permissions: ['lineup:read'] }),
    });
    expect(res.status).toBe(403);
    expect(res.body).toEqual({ detail: expect.any(String), code: 'forbidden' });
  });
});
