/**
 * Notification settings: timezone, quiet hours, daily digest (docs/api/contract.md §7.3), through
 * the gateway. What the settings do to deliveries is in digest.int-spec.ts (a controlled clock).
 */
import { api, closeNats, user } from './support';

const PATH = '/api/v1/notifications/settings';
const DEFAULTS = { timezone: 'UTC', quiet_hours: null, email_digest: 'off', digest_time: '08:00' };

afterAll(async () => {
  await closeNats();
});

describe('GET and PUT /api/v1/notifications/settings', () => {
  it('answers the defaults, enveloped, before anything was set', async () => {
    const me = await user();
    const res = await api(PATH, { token: me.token });
    expect(res.status).toBe(200);
    expect(res.body).toEqual({ success: true, message: expect.any(String), data: DEFAULTS });
  });

  it("replaces the caller's settings; a field left out takes its default", async () => {
    const me = await user();
    const full = {
      timezone: 'Europe/Berlin',
      quiet_hours: { start: '22:00', end: '07:00' },
      email_digest: 'daily',
      digest_time: '06:30',
    };
    const put = await api(PATH, { token: me.token, method: 'PUT', json: full });
    expect(put.status).toBe(200);
    expect(put.body.data).toEqual(full);
    expect((await api(PATH, { token: me.token })).body.data).toEqual(full);

    const partial = await api(PATH, {
      token: me.token,
      method: 'PUT',
      json: { timezone: 'America/New_York' },
    });
    expect(partial.status).toBe(200);
    expect(partial.body.data).toEqual({ ...DEFAULTS, timezone: 'America/New_York' });

    // Another user's settings are untouched.
    const other = await user();
    expect((await api(PATH, { token: other.token })).body.data).toEqual(DEFAULTS);
  });

  it('accepts UTC and a range within one day; quiet_hours null clears them', async () => {
    const me = await user();
    const day = await api(PATH, {
      token: me.token,
      method: 'PUT',
      json: { timezone: 'UTC', quiet_hours: { start: '12:00', end: '13:30' } },
    });
    expect(day.status).toBe(200);
    expect(day.body.data.quiet_hours).toEqual({ start: '12:00', end: '13:30' });
    const cleared = await api(PATH, { token: me.token, method: 'PUT', json: { quiet_hours: null } });
    expect(cleared.body.data).toEqual(DEFAULTS);
  });

  it("stores and answers a zone in the tz database's own spelling, links kept as links", async () => {
    const me = await user();
    for (const [sent, spelled] of [
      ['utc', 'UTC'],
      ['europe/berlin', 'Europe/Berlin'],
      ['us/pacific', 'US/Pacific'],
      ['ASIA/KOLKATA', 'Asia/Kolkata'],
    ]) {
      const put = await api(PATH, { token: me.token, method: 'PUT', json: { timezone: sent } });
      expect(put.status).toBe(200);
      expect(put.body.data).toEqual({ ...DEFAULTS, timezone: spelled });
      expect((await api(PATH, { token: me.token })).body.data).toEqual({ ...DEFAULTS, timezone: spelled });
    }
  });

  it('refuses a list where quiet_hours takes an object with 422 model_type at ["body","quiet_hours"]', async () => {
    const me = await user();
    for (const quiet_hours of [[], [{ start: '22:00', end: '07:00' }]]) {
      const res = await api(PATH, { token: me.token, method: 'PUT', json: { quiet_hours } });
      expect(res.status).toBe(422);
      expect(res.body).toEqual({
        detail: [{ loc: ['body', 'quiet_hours'], msg: 'Input should be a valid object', type: 'model_type' }],
      });
    }
    expect((await api(PATH, { token: me.token })).body.data).toEqual(DEFAULTS);
  });

  it('refuses an unknown zone with 422 at ["body","timezone"]', async () => {
    const me = await user();
    const res = await api(PATH, { token: me.token, method: 'PUT', json: { timezone: 'Mars/Olympus' } });
    expect(res.status).toBe(422);
    expect(res.body.detail).toEqual([
      expect.objectContaining({ loc: ['body', 'timezone'], type: 'value_error' }),
    ]);
  });

  it('refuses quiet hours that start and end at the same time with 422 at ["body","quiet_hours","end"]', async () => {
    const me = await user();
    const res = await api(PATH, {
      token: me.token,
      method: 'PUT',
      json: { quiet_hours: { start: '22:00', end: '22:00' } },
    });
    expect(res.status).toBe(422);
    expect(res.body.detail).toEqual([
      expect.objectContaining({ loc: ['body', 'quiet_hours', 'end'], type: 'value_error' }),
    ]);
  });

  it('reports every bad field: times, the digest and unknown fields', async () => {
    const me = await user();
    const res = await api(PATH, {
      token: me.token,
      method: 'PUT',
      json: {
        quiet_hours: { start: '24:00', end: '7:00' },
        email_digest: 'weekly',
        digest_time: '8am',
        x: 1,
      },
    });
    expect(res.status).toBe(422);
    const locs = (res.body.detail as { loc: string[] }[]).map((d) => d.loc.join('.'));
    expect(locs.sort()).toEqual(
      [
        'body.quiet_hours.start',
        'body.quiet_hours.end',
        'body.email_digest',
        'body.digest_time',
        'body.x',
      ].sort(),
    );
    // Nothing was stored.
    expect((await api(PATH, { token: me.token })).body.data).toEqual(DEFAULTS);
  });

  it('needs a token', async () => {
    expect((await api(PATH)).status).toBe(401);
  });
});
