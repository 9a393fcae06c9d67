/**
 * Bookings and their lines (docs/api/contract.md §4.12, §4a): create with lines, list with filters and
 * cursors, get a booking, status changes (409 naming the current status), lines added and updated
 * under their order only (docs/api/contract.md §1 ownership), money as two-decimal strings (§3).
 */
import { randomUUID } from 'node:crypto';
import {
  createBooking,
  follow,
  inventory,
  inventoryDb,
  line,
  reader,
  reference,
  tokenWith,
  writer,
} from './support';

const create = (json: unknown, token = writer()) => inventory('/api/v1/bookings', { token, json });
const patch = (path: string, json: unknown, token = writer()) =>
  inventory(`/api/v1/bookings/${path}`, { method: 'PATCH', token, json });

describe('POST /inventory/api/v1/bookings', () => {
  it('creates a DRAFT booking in USD with its lines in order, money as two-decimal strings', async () => {
    const sub = randomUUID();
    const ref = reference();
    const res = await create(
      {
        reference: ref,
        client_name: 'Acme',
        agency: 'Mediacom',
        lines: [
          line({ rate_card_amount: '1250.5', booked_amount: 1000 }),
          line({ platform: 'RADIO', category: 'Sport', rate_card_amount: 0.1, booked_amount: '0.05' }),
          line({ platform: 'DIGITAL', rate_card_amount: '33.33', booked_amount: '33.33' }),
        ],
      },
      writer(sub),
    );
    expect(res.status).toBe(201);
    expect(res.body).toEqual({
      id: expect.any(String),
      reference: ref,
      client_name: 'Acme',
      agency: 'Mediacom',
      status: 'DRAFT',
      currency: 'USD',
      created_by: sub,
      created_at: expect.stringMatching(/^\d{4}-\d{2}-\d{2}T\d{2}:\d{2}:\d{2}\.\d{3}Z$/),
      updated_at: expect.any(String),
      lines: [
        {
          id: expect.any(String),
          platform: 'TV',
          category: 'News',
          channel: 'Channel 1',
          start_date: '2026-01-01',
          end_date: '2026-01-31',
          spots: 10,
          rate_card_amount: '1250.50',
          booked_amount: '1000.00',
          assets: [],
        },
        expect.objectContaining({ platform: 'RADIO', rate_card_amount: '0.10', booked_amount: '0.05' }),
        expect.objectContaining({ platform: 'DIGITAL', rate_card_amount: '33.33' }),
      ],
      totals: { rate_card_amount: '1283.93', booked_amount: '1033.38' },
    });
    const got = await inventory(`/api/v1/bookings/${res.body.id}`, { token: reader() });
    expect(got.status).toBe(200);
    expect(got.body).toEqual(res.body);
  });

  it('creates a booking without lines with zero totals, and takes currency, agency null and status', async () => {
    const res = await create({
      reference: reference(),
      client_name: 'Solo',
      currency: 'EUR',
      status: 'CONFIRMED',
    });
    expect(res.status).toBe(201);
    expect(res.body).toMatchObject({
      agency: null,
      currency: 'EUR',
      status: 'CONFIRMED',
      lines: [],
      totals: { rate_card_amount: '0.00', booked_amount: '0.00' },
    });
  });

  it('sums many lines with uneven cents exactly', async () => {
    const lines = Array.from({ length: 7 }, () => line({ rate_card_amount: '0.01', booked_amount: '33.33' }));
    const res = await create({ reference: reference(), client_name: 'Cents', lines });
    expect(res.body.totals).toEqual({ rate_card_amount: '0.07', booked_amount: '233.31' });
  });

  it('reports every failing field at its loc, lines by index', async () => {
    const res = await create({
      client_name: '',
      agency: 5,
      currency: 'usd',
      status: 'OPEN',
      extra: 1,
      lines: [
        line(),
        line({
          platform: 'PRINT',
          category: '',
          channel: 'x'.repeat(101),
          start_date: '2026-02-30',
          spots: 0,
          rate_card_amount: '1.001',
          booked_amount: -1,
        }),
      ],
    });
    expect(res.status).toBe(422);
    const at = (loc: string[]) =>
      res.body.detail.find((i: { loc: string[] }) => i.loc.join('.') === loc.join('.'));
    expect(at(['body', 'reference'])).toMatchObject({ type: 'missing' });
    expect(at(['body', 'client_name'])).toMatchObject({ type: 'string_too_short' });
    expect(at(['body', 'agency'])).toMatchObject({ type: 'string_type' });
    expect(at(['body', 'currency'])).toMatchObject({ type: 'value_error' });
    expect(at(['body', 'status'])).toMatchObject({ type: 'enum' });
    expect(at(['body', 'extra'])).toMatchObject({ type: 'extra_forbidden' });
    expect(at(['body', 'lines', '1', 'platform'])).toMatchObject({ type: 'enum' });
    expect(at(['body', 'lines', '1', 'category'])).toMatchObject({ type: 'string_too_short' });
    expect(at(['body', 'lines', '1', 'channel'])).toMatchObject({ type: 'string_too_long' });
    expect(at(['body', 'lines', '1', 'start_date'])).toMatchObject({ type: 'date_parsing' });
    expect(at(['body', 'lines', '1', 'spots'])).toMatchObject({ type: 'greater_than_equal' });
    expect(at(['body', 'lines', '1', 'rate_card_amount'])).toMatchObject({ type: 'decimal_parsing' });
    expect(at(['body', 'lines', '1', 'booked_amount'])).toMatchObject({ type: 'decimal_parsing' });
    expect(at(['body', 'lines', '0', 'platform'])).toBeUndefined();
  });

  it('refuses a float that is not two decimals (0.1 + 0.2) and accepts the same as text', async () => {
    const bad = await create({
      reference: reference(),
      client_name: 'F',
      lines: [line({ booked_amount: 0.1 + 0.2 })],
    });
    expect(bad.status).toBe(422);
    expect(bad.body.detail).toEqual([
      { loc: ['body', 'lines', '0', 'booked_amount'], msg: expect.any(String), type: 'decimal_parsing' },
    ]);
    const good = await create({
      reference: reference(),
      client_name: 'F',
      lines: [line({ booked_amount: '0.30' })],
    });
    expect(good.body.lines[0].booked_amount).toBe('0.30');
  });

  it('takes the largest amount (15 integer digits) and refuses one digit more', async () => {
    const max = '999999999999999.99';
    const ok = await create({
      reference: reference(),
      client_name: 'Max',
      lines: [line({ rate_card_amount: max })],
    });
    expect(ok.status).toBe(201);
    expect(ok.body.lines[0].rate_card_amount).toBe(max);
    const over = await create({
      reference: reference(),
      client_name: 'Max',
      lines: [line({ rate_card_amount: '1000000000000000.00' })],
    });
    expect(over.status).toBe(422);
  });

  it('bounds spots to 1..1000000, text lengths, and refuses end_date before start_date', async () => {
    const spots = async (n: number) =>
      (await create({ reference: reference(), client_name: 'S', lines: [line({ spots: n })] })).status;
    expect(await spots(1)).toBe(201);
    expect(await spots(1_000_000)).toBe(201);
    expect(await spots(1_000_001)).toBe(422);
    expect(await spots(1.5)).toBe(422);
    expect(
      (await create({ reference: 'r'.repeat(100) + randomUUID().slice(0, 0), client_name: 'c'.repeat(255) }))
        .status,
    ).toBe(201);
    const long = await create({ reference: 'r'.repeat(101), client_name: 'c'.repeat(256) });
    expect(long.body.detail.map((i: { loc: string[] }) => i.loc[1])).toEqual(['reference', 'client_name']);
    const sameDay = await create({
      reference: reference(),
      client_name: 'D',
      lines: [line({ start_date: '2026-03-01', end_date: '2026-03-01' })],
    });
    expect(sameDay.status).toBe(201);
    const inverted = await create({
      reference: reference(),
      client_name: 'D',
      lines: [line(), line({ start_date: '2026-03-02', end_date: '2026-03-01' })],
    });
    expect(inverted.status).toBe(422);
    expect(inverted.body.detail).toEqual([
      { loc: ['body', 'lines', '1', 'end_date'], msg: expect.any(String), type: 'value_error' },
    ]);
  });

  it('takes 1000 lines in one create and refuses 1001', async () => {
    const ok = await create({
      reference: reference(),
      client_name: 'Bulk',
      lines: Array.from({ length: 1000 }, () => line()),
    });
    expect(ok.status).toBe(201);
    expect(ok.body.lines).toHaveLength(1000);
    expect(ok.body.totals).toEqual({ rate_card_amount: '100000.00', booked_amount: '90000.00' });
    const over = await create({
      reference: reference(),
      client_name: 'Bulk',
      lines: Array.from({ length: 1001 }, () => line()),
    });
    expect(over.status).toBe(422);
    expect(over.body.detail).toEqual([{ loc: ['body', 'lines'], msg: expect.any(String), type: 'too_long' }]);
  });

  it('answers 409 booking_reference_taken for a used reference, once among racing creates', async () => {
    const ref = reference();
    const results = await Promise.all(
      Array.from({ length: 8 }, () => create({ reference: ref, client_name: 'Race' })),
    );
    expect(results.filter((r) => r.status === 201)).toHaveLength(1);
    for (const r of results.filter((r) => r.status !== 201)) {
      expect(r.status).toBe(409);
      expect(r.body).toEqual({ detail: expect.stringContaining(ref), code: 'booking_reference_taken' });
    }
  });

  it('answers 415 to a form body, 401 without a token and 403 without bookings:write', async () => {
    const form = await inventory('/api/v1/bookings', {
      token: writer(),
      form: { reference: reference(), client_name: 'F' },
    });
    expect(form.status).toBe(415);
    expect((await inventory('/api/v1/bookings', { json: { reference: 'x', client_name: 'y' } })).status).toBe(
      401,
    );
    const res = await create({ reference: reference(), client_name: 'y' }, reader());
    expect(res.status).toBe(403);
    expect(res.body.code).toBe('forbidden');
  });
});

describe('GET /inventory/api/v1/bookings/{order_id}', () => {
  it('answers 404 for an unknown order and 422 at ["path","order_id"] for a malformed one', async () => {
    const missing = await inventory(`/api/v1/bookings/${randomUUID()}`, { token: reader() });
    expect(missing.status).toBe(404);
    expect(missing.body).toEqual({ detail: expect.any(String), code: 'not_found' });
    const bad = await inventory('/api/v1/bookings/not-a-uuid', { token: reader() });
    expect(bad.status).toBe(422);
    expect(bad.body.detail).toEqual([
      { loc: ['path', 'order_id'], msg: expect.any(String), type: 'uuid_parsing' },
    ]);
  });

  it('needs bookings:read (403) and a token (401)', async () => {
    const booking = await createBooking();
    expect(
      (await inventory(`/api/v1/bookings/${booking.id}`, { token: tokenWith(['analytics:revenue']) })).status,
    ).toBe(403);
    expect((await inventory(`/api/v1/bookings/${booking.id}`)).status).toBe(401);
  });
});

describe('status changes (PATCH /inventory/api/v1/bookings/{order_id})', () => {
  it('moves DRAFT -> CONFIRMED -> CANCELLED and refuses the rest with 409 naming the current status', async () => {
    const booking = await createBooking();
    const confirmed = await patch(booking.id, { status: 'CONFIRMED' });
    expect(confirmed.status).toBe(200);
    expect(confirmed.body.status).toBe('CONFIRMED');
    expect(confirmed.body.lines).toHaveLength(1);

    const back = await patch(booking.id, { status: 'DRAFT' });
    expect(back.status).toBe(409);
    expect(back.body).toEqual({
      detail: expect.stringContaining('is CONFIRMED'),
      code: 'invalid_status_transition',
    });
    expect((await patch(booking.id, { status: 'CONFIRMED' })).status).toBe(409);

    expect((await patch(booking.id, { status: 'CANCELLED' })).body.status).toBe('CANCELLED');
    for (const status of ['DRAFT', 'CONFIRMED', 'CANCELLED']) {
      const res = await patch(booking.id, { status });
      expect(res.status).toBe(409);
      expect(res.body.detail).toContain('is CANCELLED');
    }
  });

  it('moves DRAFT -> CANCELLED and refuses DRAFT -> DRAFT', async () => {
    const booking = await createBooking();
    const same = await patch(booking.id, { status: 'DRAFT' });
    expect(same.status).toBe(409);
    expect(same.body.detail).toContain('is DRAFT');
    expect((await patch(booking.id, { status: 'CANCELLED' })).body.status).toBe('CANCELLED');
  });

  it('lets exactly one of ten racing confirmations win', async () => {
    const booking = await createBooking();
    const results = await Promise.all(
      Array.from({ length: 10 }, () => patch(booking.id, { status: 'CONFIRMED' })),
    );
    expect(results.map((r) => r.status).sort()).toEqual([200, ...Array(9).fill(409)]);
  });

  it('lets exactly one of a racing confirm and cancel decide, never both', async () => {
    const booking = await createBooking();
    const [a, b] = await Promise.all([
      patch(booking.id, { status: 'CANCELLED' }),
      patch(booking.id, { status: 'CONFIRMED' }),
    ]);
    const final = (await inventory(`/api/v1/bookings/${booking.id}`, { token: reader() })).body.status;
    // Either order is legal (CONFIRMED then CANCELLED ends CANCELLED with both 200), but never a lost update.
    if (a.status === 200 && b.status === 200) expect(final).toBe('CANCELLED');
    else expect([a.status, b.status].sort()).toEqual([200, 409]);
  });

  it('changes client fields, 422s an empty body at ["body"], a bad status, and 404s an unknown order', async () => {
    const booking = await createBooking();
    const res = await patch(booking.id, { client_name: 'Renamed', agency: null });
    expect(res.status).toBe(200);
    expect(res.body).toMatchObject({ client_name: 'Renamed', agency: null, status: 'DRAFT' });
    const empty = await patch(booking.id, {});
    expect(empty.status).toBe(422);
    expect(empty.body.detail).toEqual([{ loc: ['body'], msg: expect.any(String), type: 'value_error' }]);
    expect((await patch(booking.id, { status: 'OPEN' })).body.detail[0]).toMatchObject({
      loc: ['body', 'status'],
      type: 'enum',
    });
    expect((await patch(booking.id, { reference: 'x' })).body.detail[0]).toMatchObject({
      type: 'extra_forbidden',
    });
    expect((await patch(randomUUID(), { status: 'CONFIRMED' })).status).toBe(404);
    expect((await patch(booking.id, { status: 'CONFIRMED' }, reader())).status).toBe(403);
  });
});

describe('lines (POST/GET .../lines, PATCH .../lines/{line_id})', () => {
  it('adds a line to a booking (201) and lists lines in order with a cursor', async () => {
    const booking = await createBooking();
    const added = await inventory(`/api/v1/bookings/${booking.id}/lines`, {
      token: writer(),
      json: line({ platform: 'DIGITAL', rate_card_amount: '10.10' }),
    });
    expect(added.status).toBe(201);
    expect(added.body).toMatchObject({ platform: 'DIGITAL', rate_card_amount: '10.10', assets: [] });
    const got = await inventory(`/api/v1/bookings/${booking.id}`, { token: reader() });
    expect(got.body.lines.map((l: { id: string }) => l.id)).toEqual([booking.lines[0].id, added.body.id]);
    expect(got.body.totals.rate_card_amount).toBe('110.10');

    const first = await inventory(`/api/v1/bookings/${booking.id}/lines?page_size=1`, { token: reader() });
    expect(first.status).toBe(200);
    expect(first.body.results.map((l: { id: string }) => l.id)).toEqual([booking.lines[0].id]);
    expect(first.body.previous).toBeNull();
    const second = await follow(first.body.next, reader());
    expect(second.body.results.map((l: { id: string }) => l.id)).toEqual([added.body.id]);
    expect(second.body.next).toBeNull();
    expect((await inventory(`/api/v1/bookings/${randomUUID()}/lines`, { token: reader() })).status).toBe(404);
  });

  it('updates each field of a line alone, keeps the others, and refuses an empty body with 422 at ["body"]', async () => {
    const booking = await createBooking();
    const path = `${booking.id}/lines/${booking.lines[0].id}`;
    const changes: Record<string, unknown>[] = [
      { platform: 'RADIO' },
      { category: 'Sport' },
      { channel: 'Channel 9' },
      { start_date: '2026-01-05' },
      { end_date: '2026-02-05' },
      { spots: 3 },
      { rate_card_amount: '12.3' },
      { booked_amount: 7 },
    ];
    let expected = { ...booking.lines[0] };
    for (const change of changes) {
      const res = await patch(path, change);
      expect(res.status).toBe(200);
      const [key, value] = Object.entries(change)[0];
      expected = { ...expected, [key]: key.endsWith('amount') ? Number(value).toFixed(2) : value };
      expect(res.body).toEqual(expected);
    }
    const empty = await patch(path, {});
    expect(empty.status).toBe(422);
    expect(empty.body.detail).toEqual([{ loc: ['body'], msg: expect.any(String), type: 'value_error' }]);
    const inverted = await patch(path, { end_date: '2025-12-31' });
    expect(inverted.status).toBe(422);
    expect(inverted.body.detail[0].loc).toEqual(['body', 'end_date']);
    const invertedStart = await patch(path, { start_date: '2027-01-01' });
    expect(invertedStart.body.detail[0].loc).toEqual(['body', 'start_date']);
    expect((await patch(path, { spots: null })).body.detail[0]).toMatchObject({
      loc: ['body', 'spots'],
      type: 'int_parsing',
    });
  });

  it('answers 404 for a line of another order, never changing it', async () => {
    const mine = await createBooking();
    const theirs = await createBooking();
    const res = await patch(`${mine.id}/lines/${theirs.lines[0].id}`, { spots: 99 });
    expect(res.status).toBe(404);
    expect(res.body.code).toBe('not_found');
    const [row] = await inventoryDb('SELECT spots FROM booking_lines WHERE id = $1', [theirs.lines[0].id]);
    expect(row.spots).toBe(10);
    expect((await patch(`${mine.id}/lines/${randomUUID()}`, { spots: 1 })).status).toBe(404);
    expect((await patch(`${randomUUID()}/lines/${mine.lines[0].id}`, { spots: 1 })).status).toBe(404);
    const bad = await patch(`${mine.id}/lines/nope`, { spots: 1 });
    expect(bad.body.detail).toEqual([
      { loc: ['path', 'line_id'], msg: expect.any(String), type: 'uuid_parsing' },
    ]);
  });

  it('refuses line changes of a CANCELLED booking with 409 naming the status', async () => {
    const booking = await createBooking({ status: 'CANCELLED' });
    const add = await inventory(`/api/v1/bookings/${booking.id}/lines`, { token: writer(), json: line() });
    expect(add.status).toBe(409);
    expect(add.body).toEqual({ detail: expect.stringContaining('CANCELLED'), code: 'booking_cancelled' });
    expect((await patch(`${booking.id}/lines/${booking.lines[0].id}`, { spots: 2 })).status).toBe(409);
  });
});

describe('GET /inventory/api/v1/bookings (list)', () => {
  const client = `Client-${randomUUID()}`;
  const ids: Record<string, string> = {};

  beforeAll(async () => {
    // Four bookings of one client, created on known days (set behind the API's back).
    const plan: [string, string, string][] = [
      ['a', 'DRAFT', '2021-03-01T00:00:00.000Z'],
      ['b', 'CONFIRMED', '2021-03-15T12:00:00.000Z'],
      ['c', 'CONFIRMED', '2021-03-31T23:59:59.999Z'],
      ['d', 'CANCELLED', '2021-04-01T00:00:00.000Z'],
    ];
    for (const [key, status, at] of plan) {
      const booking = await createBooking({ client_name: client, status });
      ids[key] = booking.id;
      await inventoryDb('UPDATE bookings SET created_at = $2 WHERE id = $1', [booking.id, at]);
    }
  });

  const list = (query: string) =>
    inventory(`/api/v1/bookings?client_name=${encodeURIComponent(client)}${query}`, { token: reader() });
  const idsOf = (res: { body: { results: { id: string }[] } }) => res.body.results.map((b) => b.id);

  it('lists newest first with totals and no lines, filtered by client_name', async () => {
    const res = await list('');
    expect(res.status).toBe(200);
    expect(idsOf(res)).toEqual([ids.d, ids.c, ids.b, ids.a]);
    expect(res.body.results[0]).toEqual({
      id: ids.d,
      reference: expect.any(String),
      client_name: client,
      agency: null,
      status: 'CANCELLED',
      currency: 'USD',
      created_by: expect.any(String),
      created_at: '2021-04-01T00:00:00.000Z',
      updated_at: expect.any(String),
      totals: { rate_card_amount: '100.00', booked_amount: '90.00' },
    });
    expect(res.body.next).toBeNull();
    expect(res.body.previous).toBeNull();
  });

  it('filters by status and by an inclusive created range of UTC days', async () => {
    expect(idsOf(await list('&status=CONFIRMED'))).toEqual([ids.c, ids.b]);
    expect(idsOf(await list('&created_from=2021-03-15&created_to=2021-03-31'))).toEqual([ids.c, ids.b]);
    expect(idsOf(await list('&created_from=2021-04-01'))).toEqual([ids.d]);
    expect(idsOf(await list('&created_to=2021-03-01'))).toEqual([ids.a]);
    expect(idsOf(await list('&created_from=2020-01-01&created_to=2020-12-31'))).toEqual([]);
  });

  it('walks pages with next and previous, keeping the filters', async () => {
    const first = await list('&page_size=3');
    expect(idsOf(first)).toEqual([ids.d, ids.c, ids.b]);
    expect(first.body.next).toContain('client_name=');
    const second = await follow(first.body.next, reader());
    expect(idsOf(second as any)).toEqual([ids.a]);
    expect((second.body as any).next).toBeNull();
    const back = await follow((second.body as any).previous, reader());
    expect(idsOf(back as any)).toEqual([ids.d, ids.c, ids.b]);
  });

  it('refuses bad filters, page sizes and cursors with 422 at their query loc', async () => {
    const res = await inventory('/api/v1/bookings?status=OPEN&created_from=2021-02-30&page_size=0', {
      token: reader(),
    });
    expect(res.status).toBe(422);
    expect(res.body.detail.map((i: { loc: string[] }) => i.loc)).toEqual([
      ['query', 'status'],
      ['query', 'created_from'],
      ['query', 'page_size'],
    ]);
    const twice = await list('&status=DRAFT&status=CONFIRMED');
    expect(twice.body.detail).toEqual([
      { loc: ['query', 'status'], msg: expect.any(String), type: 'value_error' },
    ]);
    expect((await list('&page_size=100')).status).toBe(200);
    expect((await list('&page_size=101')).status).toBe(422);
    expect((await list('&cursor=junk')).body.detail[0].loc).toEqual(['query', 'cursor']);
    const inverted = await list('&created_from=2021-03-02&created_to=2021-03-01');
    expect(inverted.body.detail).toEqual([
      { loc: ['query', 'created_to'], msg: expect.any(String), type: 'value_error' },
    ]);
    expect((await inventory('/api/v1/bookings', { token: tokenWith([]) })).status).toBe(403);
  });
});
