/**
 * The revenue summary (docs/api/contract.md §4.10) on hand-computed data: only CONFIRMED orders,
 * inclusive dates on the order's created_at (UTC), cents that do not divide evenly, zero-filled
 * months, a range across a year boundary, the platform filter, and a breakdown whose children sum
 * exactly to their parent. Orders are dated behind the API's back (created_at is server-set), in
 * years no other test uses; that also exercises the rollup's trigger on created_at.
 */
import { createBooking, inventory, inventoryDb, line, tokenWith, writer } from './support';

const analyst = () => tokenWith(['analytics:revenue']);
const summary = (query: string, token = analyst()) =>
  inventory(`/api/v1/analytics/revenue-summary${query}`, { token });

/** Creates a booking through the API, then dates it. */
async function bookingAt(at: string, status: string, lines: Record<string, unknown>[]) {
  const booking = await createBooking({ status, lines });
  await inventoryDb('UPDATE bookings SET created_at = $2 WHERE id = $1', [booking.id, at]);
  return booking;
}

const l = (platform: string, category: string, rate_card_amount: string, booked_amount: string) =>
  line({ platform, category, rate_card_amount, booked_amount });

const fig = (rate_card: string, booked: string, erosion: string, erosion_pct: string | null) => ({
  rate_card,
  booked,
  erosion,
  erosion_pct,
});

const cents = (s: string) => BigInt(s.replace('.', ''));

/** Rows of revenue_days or revenue_months that differ from a recount over the lines (none when exact). */
async function rollupDrift() {
  return inventoryDb(`
    WITH recount AS (
      SELECT (b.created_at AT TIME ZONE 'UTC')::date AS day, l.platform, l.category,
             sum(l.rate_card_amount) AS rate_card, sum(l.booked_amount) AS booked, count(*)::int AS lines
        FROM booking_lines l JOIN bookings b ON b.id = l.order_id
       WHERE b.status = 'CONFIRMED'
       GROUP BY 1, 2, 3
    ), months AS (
      SELECT date_trunc('month', day::timestamp)::date AS month, platform, category,
             sum(rate_card) AS rate_card, sum(booked) AS booked, sum(lines)::int AS lines
        FROM recount GROUP BY 1, 2, 3
    ), kept_days AS (SELECT * FROM revenue_days WHERE lines <> 0 OR rate_card <> 0 OR booked <> 0),
    kept_months AS (SELECT * FROM revenue_months WHERE lines <> 0 OR rate_card <> 0 OR booked <> 0)
    SELECT 'day' AS rollup, day AS at, platform, category FROM kept_days k FULL JOIN recount r USING (day, platform, category)
     WHERE k.rate_card IS DISTINCT FROM r.rate_card OR k.booked IS DISTINCT FROM r.booked
        OR k.lines IS DISTINCT FROM r.lines
    UNION ALL
    SELECT 'month', month, platform, category FROM kept_months k FULL JOIN months r USING (month, platform, category)
     WHERE k.rate_card IS DISTINCT FROM r.rate_card OR k.booked IS DISTINCT FROM r.booked
        OR k.lines IS DISTINCT FROM r.lines`);
}

describe('GET /inventory/api/v1/analytics/revenue-summary', () => {
  beforeAll(async () => {
    await bookingAt('2015-06-10T08:00:00.000Z', 'CONFIRMED', [
      l('TV', 'News', '100.01', '66.67'),
      l('TV', 'News', '33.33', '33.33'),
      l('TV', 'Sport', '0.01', '0.00'),
      l('RADIO', 'Music', '10.00', '3.33'),
    ]);
    await bookingAt('2015-07-31T23:59:59.999Z', 'CONFIRMED', [
      l('TV', 'News', '0.10', '0.05'),
      l('DIGITAL', 'Display', '0.00', '0.00'),
    ]);
    // Not CONFIRMED: never counted, and a category only they have never listed.
    await bookingAt('2015-06-11T00:00:00.000Z', 'DRAFT', [l('TV', 'News', '1000.00', '1000.00')]);
    const cancelled = await bookingAt('2015-06-12T00:00:00.000Z', 'CONFIRMED', [
      l('RADIO', 'Talk', '500.00', '400.00'),
    ]);
    await inventory(`/api/v1/bookings/${cancelled.id}`, {
      method: 'PATCH',
      token: writer(),
      json: { status: 'CANCELLED' },
    });
  });

  it('sums CONFIRMED lines exactly, half-up percentages, platforms and categories in byte order', async () => {
    const res = await summary('?date_from=2015-06-01&date_to=2015-07-31');
    expect(res.status).toBe(200);
    expect(res.body).toEqual({
      totals: fig('143.45', '103.38', '40.07', '27.93'),
      trend: [
        { month: '2015-06', ...fig('143.35', '103.33', '40.02', '27.92') },
        { month: '2015-07', ...fig('0.10', '0.05', '0.05', '50.00') },
      ],
      breakdown: [
        {
          platform: 'DIGITAL',
          ...fig('0.00', '0.00', '0.00', null),
          categories: [{ category: 'Display', ...fig('0.00', '0.00', '0.00', null) }],
        },
        {
          platform: 'RADIO',
          ...fig('10.00', '3.33', '6.67', '66.70'),
          categories: [{ category: 'Music', ...fig('10.00', '3.33', '6.67', '66.70') }],
        },
        {
          platform: 'TV',
          ...fig('133.45', '100.05', '33.40', '25.03'),
          categories: [
            { category: 'News', ...fig('133.44', '100.05', '33.39', '25.02') },
            { category: 'Sport', ...fig('0.01', '0.00', '0.01', '100.00') },
          ],
        },
      ],
    });
  });

  it('has children that sum exactly to their parent, and months that sum to the total', async () => {
    const { body } = await summary('?date_from=2015-01-01&date_to=2015-12-31');
    for (const key of ['rate_card', 'booked', 'erosion'] as const) {
      const platforms = body.breakdown.map((p: Record<string, string>) => cents(p[key]));
      expect(platforms.reduce((a: bigint, b: bigint) => a + b, 0n)).toBe(cents(body.totals[key]));
      for (const p of body.breakdown) {
        const sum = p.categories.reduce((a: bigint, c: Record<string, string>) => a + cents(c[key]), 0n);
        expect(sum).toBe(cents(p[key]));
      }
      const months = body.trend.reduce((a: bigint, m: Record<string, string>) => a + cents(m[key]), 0n);
      expect(months).toBe(cents(body.totals[key]));
    }
    expect(body.trend).toHaveLength(12);
    expect(body.trend[0]).toEqual({ month: '2015-01', ...fig('0.00', '0.00', '0.00', null) });
  });

  it('adds partial months at both ends to whole months in between', async () => {
    // 06-10 .. 07-31: June is partial (from the days), July whole (from the months).
    expect((await summary('?date_from=2015-06-10&date_to=2015-07-31')).body.totals).toEqual(
      fig('143.45', '103.38', '40.07', '27.93'),
    );
    // 06-01 .. 07-30: June whole, July partial (the last day excluded).
    expect((await summary('?date_from=2015-06-01&date_to=2015-07-30')).body.totals).toEqual(
      fig('143.35', '103.33', '40.02', '27.92'),
    );
    // Inside one month, neither end on a month boundary.
    expect((await summary('?date_from=2015-06-09&date_to=2015-06-11')).body.totals.rate_card).toBe('143.35');
    expect((await summary('?date_from=2015-06-11&date_to=2015-06-30')).body.totals.rate_card).toBe('0.00');
    // Whole months on both sides of a partial one, across a year boundary.
    const long = await summary('?date_from=2014-05-31&date_to=2016-01-01&platform=RADIO');
    expect(long.body.totals).toEqual(fig('10.00', '3.33', '6.67', '66.70'));
    expect(long.body.trend).toHaveLength(21);
  });

  it('rounds percentages half away from zero, negative erosion (booked over rate card) included', async () => {
    await bookingAt('2017-05-05T05:00:00.000Z', 'CONFIRMED', [
      l('TV', 'Over', '200.00', '200.01'),
      l('RADIO', 'Under', '200.00', '199.99'),
    ]);
    const res = await summary('?date_from=2017-05-01&date_to=2017-05-31');
    expect(res.body.breakdown).toEqual([
      {
        platform: 'RADIO',
        ...fig('200.00', '199.99', '0.01', '0.01'),
        categories: [{ category: 'Under', ...fig('200.00', '199.99', '0.01', '0.01') }],
      },
      {
        platform: 'TV',
        ...fig('200.00', '200.01', '-0.01', '-0.01'),
        categories: [{ category: 'Over', ...fig('200.00', '200.01', '-0.01', '-0.01') }],
      },
    ]);
    expect(res.body.totals).toEqual(fig('400.00', '400.00', '0.00', '0.00'));
  });

  it('treats both dates as whole UTC days on created_at', async () => {
    const withLast = await summary('?date_from=2015-07-31&date_to=2015-07-31');
    expect(withLast.body.totals).toEqual(fig('0.10', '0.05', '0.05', '50.00'));
    const without = await summary('?date_from=2015-06-11&date_to=2015-07-30');
    expect(without.body.totals).toEqual(fig('0.00', '0.00', '0.00', null));
    expect(without.body.breakdown).toEqual([]);
  });

  it('filters by platform: totals, trend and breakdown of that platform only', async () => {
    const res = await summary('?date_from=2015-06-01&date_to=2015-07-31&platform=TV');
    expect(res.status).toBe(200);
    expect(res.body.totals).toEqual(fig('133.45', '100.05', '33.40', '25.03'));
    expect(res.body.trend).toEqual([
      { month: '2015-06', ...fig('133.35', '100.00', '33.35', '25.01') },
      { month: '2015-07', ...fig('0.10', '0.05', '0.05', '50.00') },
    ]);
    expect(res.body.breakdown.map((p: { platform: string }) => p.platform)).toEqual(['TV']);
    const radio = await summary('?date_from=2015-06-01&date_to=2015-07-31&platform=RADIO');
    expect(radio.body.breakdown[0].categories.map((c: { category: string }) => c.category)).toEqual([
      'Music',
    ]);
  });

  it('answers an empty range with zeros, null percentages and every month', async () => {
    const res = await summary('?date_from=2001-01-15&date_to=2001-03-01');
    expect(res.body).toEqual({
      totals: fig('0.00', '0.00', '0.00', null),
      trend: ['2001-01', '2001-02', '2001-03'].map((month) => ({
        month,
        ...fig('0.00', '0.00', '0.00', null),
      })),
      breakdown: [],
    });
  });

  it('crosses a year boundary month by month, the last millisecond of a year in its own year', async () => {
    await bookingAt('2019-12-31T23:59:59.999Z', 'CONFIRMED', [l('TV', 'News', '10.00', '5.00')]);
    await bookingAt('2020-01-01T00:00:00.000Z', 'CONFIRMED', [l('TV', 'News', '20.00', '20.00')]);
    const res = await summary('?date_from=2019-11-15&date_to=2020-02-10');
    expect(res.body.totals).toEqual(fig('30.00', '25.00', '5.00', '16.67'));
    expect(res.body.trend).toEqual([
      { month: '2019-11', ...fig('0.00', '0.00', '0.00', null) },
      { month: '2019-12', ...fig('10.00', '5.00', '5.00', '50.00') },
      { month: '2020-01', ...fig('20.00', '20.00', '0.00', '0.00') },
      { month: '2020-02', ...fig('0.00', '0.00', '0.00', null) },
    ]);
    expect((await summary('?date_from=2019-12-31&date_to=2019-12-31')).body.totals.rate_card).toBe('10.00');
    expect((await summary('?date_from=2020-01-01&date_to=2020-01-01')).body.totals.rate_card).toBe('20.00');
  });

  it('follows status changes, line edits and additions of an order, and deletions made in SQL', async () => {
    const at = '2016-03-05T10:00:00.000Z';
    const range = '?date_from=2016-03-01&date_to=2016-03-31';
    const booking = await bookingAt(at, 'DRAFT', [l('TV', 'News', '1.00', '0.50')]);
    expect((await summary(range)).body.totals.rate_card).toBe('0.00');
    const patch = (path: string, json: unknown) =>
      inventory(`/api/v1/bookings/${path}`, { method: 'PATCH', token: writer(), json });
    await patch(booking.id, { status: 'CONFIRMED' });
    expect((await summary(range)).body.totals).toEqual(fig('1.00', '0.50', '0.50', '50.00'));
    await inventory(`/api/v1/bookings/${booking.id}/lines`, {
      token: writer(),
      json: l('RADIO', 'Talk', '2.00', '2.00'),
    });
    await patch(`${booking.id}/lines/${booking.lines[0].id}`, { category: 'Sport', booked_amount: '0.25' });
    const after = (await summary(range)).body;
    expect(after.totals).toEqual(fig('3.00', '2.25', '0.75', '25.00'));
    expect(after.breakdown.map((p: any) => [p.platform, p.categories.map((c: any) => c.category)])).toEqual([
      ['RADIO', ['Talk']],
      ['TV', ['Sport']],
    ]);
    await patch(booking.id, { status: 'CANCELLED' });
    expect((await summary(range)).body).toMatchObject({
      totals: fig('0.00', '0.00', '0.00', null),
      breakdown: [],
    });

    const deleted = await bookingAt('2016-03-06T00:00:00.000Z', 'CONFIRMED', [
      l('TV', 'News', '4.00', '4.00'),
    ]);
    expect((await summary(range)).body.totals.rate_card).toBe('4.00');
    await inventoryDb('DELETE FROM bookings WHERE id = $1', [deleted.id]);
    expect((await summary(range)).body.totals.rate_card).toBe('0.00');
    expect(await rollupDrift()).toEqual([]);
  });

  it('stays exact under racing creates, confirmations and line additions', async () => {
    const categories = ['A', 'B', 'C'];
    const drafts = await Promise.all(
      Array.from({ length: 6 }, (_, i) =>
        createBooking({ lines: [l('TV', categories[i % 3], '1.01', '1.00')] }),
      ),
    );
    await Promise.all([
      ...Array.from({ length: 8 }, (_, i) =>
        createBooking({
          status: 'CONFIRMED',
          lines: [
            l('TV', categories[i % 3], '0.33', '0.10'),
            l('TV', categories[(i + 1) % 3], '0.34', '0.20'),
          ],
        }),
      ),
      ...drafts.map((d) =>
        inventory(`/api/v1/bookings/${d.id}`, {
          method: 'PATCH',
          token: writer(),
          json: { status: 'CONFIRMED' },
        }),
      ),
      ...drafts.map((d) =>
        inventory(`/api/v1/bookings/${d.id}/lines`, {
          token: writer(),
          json: l('RADIO', 'X', '0.07', '0.01'),
        }),
      ),
    ]);
    expect(await rollupDrift()).toEqual([]);
  });

  it('defaults to the current UTC month', async () => {
    const now = new Date();
    const month = now.toISOString().slice(0, 7);
    const res = await summary('');
    expect(res.status).toBe(200);
    expect(res.body.trend.map((m: { month: string }) => m.month)).toEqual([month]);
    const last = new Date(Date.UTC(now.getUTCFullYear(), now.getUTCMonth() + 1, 0))
      .toISOString()
      .slice(0, 10);
    const explicit = await summary(`?date_from=${month}-01&date_to=${last}`);
    expect(explicit.body).toEqual(res.body);
  });

  it('refuses bad dates, an unknown platform and an inverted range with 422 at their query loc', async () => {
    const res = await summary('?date_from=2015-02-29&date_to=15-01-01&platform=PRINT');
    expect(res.status).toBe(422);
    expect(res.body.detail).toEqual([
      { loc: ['query', 'date_from'], msg: expect.any(String), type: 'date_parsing' },
      { loc: ['query', 'date_to'], msg: expect.any(String), type: 'date_parsing' },
      { loc: ['query', 'platform'], msg: expect.any(String), type: 'enum' },
    ]);
    const inverted = await summary('?date_from=2015-03-02&date_to=2015-03-01');
    expect(inverted.body.detail).toEqual([
      { loc: ['query', 'date_to'], msg: expect.any(String), type: 'value_error' },
    ]);
    expect((await summary('?date_from=1900-01-01&date_to=1999-12-31')).status).toBe(200);
    expect((await summary('?date_from=1900-01-01&date_to=2000-01-01')).status).toBe(422);
    const twice = await summary('?platform=TV&platform=RADIO');
    expect(twice.status).toBe(422);
    expect(twice.body.detail).toEqual([
      { loc: ['query', 'platform'], msg: expect.any(String), type: 'value_error' },
    ]);
  });

  it('needs analytics:revenue (403) and a token (401)', async () => {
    expect((await summary('', tokenWith(['bookings:read', 'bookings:write']))).status).toBe(403);
    expect((await inventory('/api/v1/analytics/revenue-summary')).status).toBe(401);
  });
});
