/**
 * Broadcast schedules: create (JSON and CSV), lists, the schedule update (PUT with ETag / If-Match) and
 * the slot list (docs/api/contract.md §4.2, §4a), in the three body encodings where the contract asks.
 */
import { randomUUID } from 'node:crypto';
import type { ApiRequest } from '@media/testing';
import { content, contentDb, editor, follow, schedule, tokenWith } from './support';

type Encoding = 'json' | 'form' | 'multipart';
const ENCODINGS: Encoding[] = ['json', 'form', 'multipart'];

/** The same fields in each encoding: forms carry numbers as decimal text and objects as JSON text. */
function encode(
  encoding: Encoding,
  fields: Record<string, unknown>,
): Pick<ApiRequest, 'json' | 'form' | 'multipart'> {
  if (encoding === 'json') return { json: fields };
  const text: Record<string, string | string[]> = {};
  for (const [key, value] of Object.entries(fields)) {
    if (value === undefined) continue;
    text[key] = Array.isArray(value)
      ? value.map((v) => (typeof v === 'object' ? JSON.stringify(v) : String(v)))
      : typeof value === 'object' && value !== null
        ? JSON.stringify(value)
        : String(value);
  }
  if (encoding === 'form') return { form: text };
  const form = new FormData();
  for (const [key, value] of Object.entries(text))
    for (const item of Array.isArray(value) ? value : [value]) form.append(key, item);
  return { multipart: form };
}

const slot = (air_date: string, start_time = '06:00', extra: Record<string, unknown> = {}) => ({
  air_date,
  start_time,
  duration_seconds: 1800,
  title: `Slot ${air_date} ${start_time}`,
  ...extra,
});

let writer: Awaited<ReturnType<typeof editor>>;
const reader = () => tokenWith(['lineup:read']);

beforeAll(async () => {
  writer = await editor();
});

async function create(fields: Record<string, unknown> = {}): Promise<Record<string, any>> {
  const res = await content('/api/v1/lineup', { token: writer.token, json: schedule(fields) });
  if (res.status !== 201) throw new Error(`create failed: ${res.status} ${res.text}`);
  return res.body;
}

describe('POST /content/api/v1/lineup (JSON)', () => {
  it('creates a schedule with slots: 201, every field, slot_count across a month boundary, uploaded_by from acl, ETag', async () => {
    const res = await content('/api/v1/lineup', {
      token: writer.token,
      json: schedule({
        effective_from: '2026-02-27',
        effective_to: '2026-03-02',
        metadata: { source: 'import' },
        slots: [slot('2026-03-01'), slot('2026-02-28'), slot('2026-02-28', '07:00'), slot('2026-03-02')],
      }),
    });
    expect(res.status).toBe(201);
    expect(res.headers.get('etag')).toBe('"1"');
    expect(res.body).toEqual({
      id: expect.any(String),
      medium: 'TV',
      channel: 'One',
      month: 3,
      year: 2026,
      title: 'March lineup',
      version: 1,
      effective_from: '2026-02-27',
      effective_to: '2026-03-02',
      uploaded_by: { id: writer.id, name: writer.name, employee_number: writer.employee_number },
      slot_count: {
        '2026-02-28': { day: 'SAT', count: 2 },
        '2026-03-01': { day: 'SUN', count: 1 },
        '2026-03-02': { day: 'MON', count: 1 },
      },
      metadata: { source: 'import' },
      created_at: expect.stringMatching(/Z$/),
      updated_at: expect.stringMatching(/Z$/),
    });
    expect(Object.keys(res.body.slot_count)).toEqual(['2026-02-28', '2026-03-01', '2026-03-02']);
  });

  it('counts a leap day and every weekday of a week', async () => {
    const body = await create({
      effective_from: '2024-02-26',
      effective_to: '2024-03-03',
      slots: [
        '2024-02-26',
        '2024-02-27',
        '2024-02-28',
        '2024-02-29',
        '2024-03-01',
        '2024-03-02',
        '2024-03-03',
      ].map((d) => slot(d)),
    });
    expect(Object.values(body.slot_count).map((v: any) => v.day)).toEqual([
      'MON',
      'TUE',
      'WED',
      'THU',
      'FRI',
      'SAT',
      'SUN',
    ]);
  });

  it('refuses slots outside effective_from..effective_to, each at its index, and stores nothing', async () => {
    const title = `outside-${randomUUID()}`;
    const res = await content('/api/v1/lineup', {
      token: writer.token,
      json: schedule({
        title,
        slots: [
          slot('2026-02-28'),
          slot('2026-03-15'),
          slot('2026-04-01'),
          { ...slot('2026-03-02'), start_time: '24:00' },
        ],
      }),
    });
    expect(res.status).toBe(422);
    expect(res.body.detail.map((i: any) => [i.loc, i.type])).toEqual([
      [['body', 'slots', '0', 'air_date'], 'value_error'],
      [['body', 'slots', '2', 'air_date'], 'value_error'],
      [['body', 'slots', '3', 'start_time'], 'time_parsing'],
    ]);
    expect(await contentDb(`SELECT 1 FROM broadcast_schedules WHERE title = $1`, [title])).toEqual([]);
  });

  it('reports slot limits on both sides of each boundary', async () => {
    const ok = await content('/api/v1/lineup', {
      token: writer.token,
      json: schedule({
        slots: [
          slot('2026-03-01', '00:00', { duration_seconds: 1, title: 't' }),
          slot('2026-03-31', '23:59', { duration_seconds: 86400, title: 'x'.repeat(255) }),
        ],
      }),
    });
    expect(ok.status).toBe(201);
    const bad = await content('/api/v1/lineup', {
      token: writer.token,
      json: schedule({
        slots: [
          slot('2026-03-01', '06:00', { duration_seconds: 0, title: '' }),
          slot('2026-03-02', '6:00', { duration_seconds: 86401, title: 'x'.repeat(256) }),
          { air_date: '2026-03-03' },
        ],
      }),
    });
    expect(bad.status).toBe(422);
    expect(bad.body.detail.map((i: any) => [i.loc.join('.'), i.type])).toEqual([
      ['body.slots.0.duration_seconds', 'greater_than_equal'],
      ['body.slots.0.title', 'string_too_short'],
      ['body.slots.1.start_time', 'time_parsing'],
      ['body.slots.1.duration_seconds', 'less_than_equal'],
      ['body.slots.1.title', 'string_too_long'],
      ['body.slots.2.start_time', 'missing'],
      ['body.slots.2.duration_seconds', 'missing'],
      ['body.slots.2.title', 'missing'],
    ]);
  });

  it('reports every missing required field at once', async () => {
    const res = await content('/api/v1/lineup', { token: writer.token, json: {} });
    expect(res.status).toBe(422);
    expect(res.body.detail.map((i: any) => [i.loc, i.type])).toEqual(
      ['medium', 'channel', 'month', 'year', 'title', 'effective_from', 'effective_to'].map((f) => [
        ['body', f],
        'missing',
      ]),
    );
  });

  it('refuses uploaded_by and an unknown field (extra_forbidden)', async () => {
    const res = await content('/api/v1/lineup', {
      token: writer.token,
      json: schedule({ uploaded_by: randomUUID(), colour: 'red' }),
    });
    expect(res.status).toBe(422);
    expect(res.body.detail.map((i: any) => [i.loc, i.type])).toEqual([
      [['body', 'uploaded_by'], 'extra_forbidden'],
      [['body', 'colour'], 'extra_forbidden'],
    ]);
  });

  it.each(ENCODINGS)('accepts slots in a %s body', async (encoding) => {
    const res = await content('/api/v1/lineup', {
      token: writer.token,
      ...encode(encoding, schedule({ slots: [slot('2026-03-05'), slot('2026-03-06')] })),
    });
    expect(res.status).toBe(201);
    expect(res.body.slot_count).toEqual({
      '2026-03-05': { day: 'THU', count: 1 },
      '2026-03-06': { day: 'FRI', count: 1 },
    });
  });

  it('needs lineup:write (403) and a token (401)', async () => {
    expect((await content('/api/v1/lineup', { json: schedule() })).status).toBe(401);
    expect((await content('/api/v1/lineup', { token: reader(), json: schedule() })).status).toBe(403);
  });

  it('names the missing permission in the 403 (docs/api/contract.md §2)', async () => {
    const res = await content('/api/v1/lineup', { token: reader(), json: schedule() });
    expect(res.status).toBe(403);
    expect(res.body).toEqual({ detail: 'Requires the permission lineup:write.', code: 'forbidden' });
    const list = await content('/api/v1/lineup', { token: tokenWith([]) });
    expect(list.status).toBe(403);
    expect(list.body).toEqual({ detail: 'Requires the permission lineup:read.', code: 'forbidden' });
  });
});

describe('POST /content/api/v1/lineup (CSV file)', () => {
  const HEADER = 'air_date,start_time,duration_seconds,title';

  function upload(csv: string | Buffer, fields: Record<string, unknown> = schedule()) {
    const form = new FormData();
    for (const [key, value] of Object.entries(fields))
      form.append(key, typeof value === 'object' ? JSON.stringify(value) : String(value));
    form.append('file', new Blob([csv]), 'lineup.csv');
    return content('/api/v1/lineup', { token: writer.token, multipart: form });
  }

  it('imports quoted fields (commas, quotes, newlines), a BOM and CRLF line ends', async () => {
    const csv = `\uFEFF${HEADER}\r\n2026-03-01,06:00,1800,"News, ""live""\r\nfrom Paris"\r\n2026-03-02,07:30,60,Weather\r\n`;
    const res = await upload(csv);
    expect(res.status).toBe(201);
    expect(res.body.slot_count).toEqual({
      '2026-03-01': { day: 'SUN', count: 1 },
      '2026-03-02': { day: 'MON', count: 1 },
    });
    const slots = await content(`/api/v1/lineup/${res.body.id}/slots`, { token: reader() });
    expect(slots.body.results.map((s: any) => s.title)).toEqual(['News, "live"\nfrom Paris', 'Weather']);
  });

  it('reports every bad line at ["body","file","<line>","<column>"] (header = line 1) with the bad fields, storing nothing', async () => {
    const title = `bad-csv-${randomUUID()}`;
    const csv = [
      HEADER,
      '2026-03-01,06:00,60,fine',
      '2026-04-01,06:00,60,after the range',
      '2026-03-02,6am,60,bad time',
      '2026-03-03,06:00,-5,',
      '2026-03-04,06:00,60,fine',
    ].join('\n');
    const res = await upload(csv, schedule({ title, channel: '' }));
    expect(res.status).toBe(422);
    expect(res.body.detail.map((i: any) => [i.loc, i.type])).toEqual([
      [['body', 'channel'], 'string_too_short'],
      [['body', 'file', '3', 'air_date'], 'value_error'],
      [['body', 'file', '4', 'start_time'], 'time_parsing'],
      [['body', 'file', '5', 'duration_seconds'], 'greater_than_equal'],
      [['body', 'file', '5', 'title'], 'string_too_short'],
    ]);
    expect(await contentDb(`SELECT 1 FROM broadcast_schedules WHERE title = $1`, [title])).toEqual([]);
  });

  it('refuses a bad header at line 1, and both slots and a file', async () => {
    const header = await upload('air_date,start,duration_seconds,title\n2026-03-01,06:00,60,x');
    expect(header.status).toBe(422);
    expect(header.body.detail.map((i: any) => i.loc)).toEqual([
      ['body', 'file', '1', 'start'],
      ['body', 'file', '1', 'start_time'],
    ]);
    const both = await upload(`${HEADER}\n2026-03-01,06:00,60,x`, schedule({ slots: [slot('2026-03-01')] }));
    expect(both.status).toBe(422);
    expect(both.body.detail.map((i: any) => i.loc)).toEqual([['body', 'slots']]);
  });

  it('imports 10,000 rows in one request, all or nothing', async () => {
    const lines = [HEADER];
    for (let i = 0; i < 10_000; i++)
      lines.push(
        `2026-03-${String((i % 31) + 1).padStart(2, '0')},${String(i % 24).padStart(2, '0')}:${String(i % 60).padStart(2, '0')},30,Slot ${i}`,
      );
    const res = await upload(lines.join('\n'));
    expect(res.status).toBe(201);
    const total = Object.values(res.body.slot_count).reduce((n: number, v: any) => n + v.count, 0);
    expect(total).toBe(10_000);
  });
});

describe('PUT /content/api/v1/lineup/{id}', () => {
  const INT_MAX = 2147483647;
  const upper = schedule({
    channel: 'c'.repeat(100),
    title: 't'.repeat(255),
    month: INT_MAX,
    year: INT_MAX,
    version: INT_MAX,
  });
  const lower = schedule({ channel: 'c', title: 't', month: 0, year: 0, version: 0 });
  const over = schedule({
    channel: 'c'.repeat(101),
    title: 't'.repeat(256),
    month: INT_MAX + 1,
    year: INT_MAX + 1,
    version: INT_MAX + 1,
  });
  const under = schedule({ channel: '', title: '', month: -1, year: -1, version: -1 });
  const LIMIT_FIELDS = ['channel', 'month', 'year', 'title', 'version'];

  describe.each(ENCODINGS)('in a %s body', (encoding) => {
    let id: string;
    beforeAll(async () => {
      id = (await create()).id;
    });
    const put = (fields: Record<string, unknown>, headers: Record<string, string> = {}) =>
      content(`/api/v1/lineup/${id}`, {
        method: 'PUT',
        token: writer.token,
        headers,
        ...encode(encoding, fields),
      });

    it('accepts every limit at its upper and lower bound', async () => {
      const high = await put(upper);
      expect(high.status).toBe(200);
      expect(high.body).toMatchObject({
        channel: 'c'.repeat(100),
        month: INT_MAX,
        year: INT_MAX,
        version: INT_MAX,
      });
      const low = await put(lower);
      expect(low.status).toBe(200);
      expect(low.body).toMatchObject({ channel: 'c', title: 't', month: 0, year: 0, version: 0 });
    });

    it('reports every limit crossed above and below, each at its field', async () => {
      for (const [fields, types] of [
        [
          over,
          ['string_too_long', 'less_than_equal', 'less_than_equal', 'string_too_long', 'less_than_equal'],
        ],
        [
          under,
          [
            'string_too_short',
            'greater_than_equal',
            'greater_than_equal',
            'string_too_short',
            'greater_than_equal',
          ],
        ],
      ] as const) {
        const res = await put(fields);
        expect(res.status).toBe(422);
        expect(res.body.detail.map((i: any) => [i.loc, i.type])).toEqual(
          LIMIT_FIELDS.map((f, i) => [['body', f], types[i]]),
        );
      }
    });

    it('requires the seven fields, reporting each', async () => {
      const res = await put({ version: 2 });
      expect(res.status).toBe(422);
      expect(res.body.detail.map((i: any) => i.loc[1])).toEqual([
        'medium',
        'channel',
        'month',
        'year',
        'title',
        'effective_from',
        'effective_to',
      ]);
    });

    it('refuses effective_from after effective_to at effective_to; equal dates pass', async () => {
      const res = await put(schedule({ effective_from: '2026-03-31', effective_to: '2026-03-30' }));
      expect(res.status).toBe(422);
      expect(res.body.detail).toEqual([
        { loc: ['body', 'effective_to'], msg: expect.any(String), type: 'value_error' },
      ]);
      expect((await put(schedule({ effective_from: '2026-03-31', effective_to: '2026-03-31' }))).status).toBe(
        200,
      );
    });

    it('refuses slots, uploaded_by, a bad medium, bad dates and non-object metadata', async () => {
      const res = await put(
        schedule({
          medium: 'PODCAST',
          effective_from: '2026-02-30',
          slots: [slot('2026-03-01')],
          uploaded_by: randomUUID(),
          metadata: [1],
        }),
      );
      expect(res.status).toBe(422);
      expect(res.body.detail.map((i: any) => [i.loc[1], i.type])).toEqual(
        expect.arrayContaining([
          ['medium', 'enum'],
          ['effective_from', 'date_parsing'],
          ['slots', 'extra_forbidden'],
          ['uploaded_by', 'extra_forbidden'],
          ['metadata', 'dict_type'],
        ]),
      );
    });

    it('keeps version and metadata when absent, replaces them when given', async () => {
      await put(schedule({ version: 7, metadata: { a: 1 } }));
      const kept = await put(schedule({ title: 'Renamed' }));
      expect(kept.status).toBe(200);
      expect(kept.body).toMatchObject({ title: 'Renamed', version: 7, metadata: { a: 1 } });
      expect(kept.body.uploaded_by.id).toBe(writer.id);
    });
  });

  it('answers a strong ETag on GET and PUT; a stale If-Match gets 412 (two writers)', async () => {
    const { id } = await create();
    const a = await content(`/api/v1/lineup/${id}`, { token: reader() });
    const b = await content(`/api/v1/lineup/${id}`, { token: reader() });
    expect(a.headers.get('etag')).toBe('"1"');
    const first = await content(`/api/v1/lineup/${id}`, {
      method: 'PUT',
      token: writer.token,
      headers: { 'if-match': a.headers.get('etag')! },
      json: schedule({ title: 'Writer A' }),
    });
    expect(first.status).toBe(200);
    expect(first.headers.get('etag')).toBe('"2"');
    const second = await content(`/api/v1/lineup/${id}`, {
      method: 'PUT',
      token: writer.token,
      headers: { 'if-match': b.headers.get('etag')! },
      json: schedule({ title: 'Writer B' }),
    });
    expect(second.status).toBe(412);
    expect(second.body.code).toBe('precondition_failed');
    expect((await content(`/api/v1/lineup/${id}`, { token: reader() })).body.title).toBe('Writer A');
    // without If-Match the write goes through
    const blind = await content(`/api/v1/lineup/${id}`, {
      method: 'PUT',
      token: writer.token,
      json: schedule(),
    });
    expect(blind.status).toBe(200);
    expect(blind.headers.get('etag')).toBe('"3"');
  });

  it('lets exactly one of racing writers holding the same ETag win', async () => {
    const { id } = await create();
    const results = await Promise.all(
      Array.from({ length: 6 }, (_, i) =>
        content(`/api/v1/lineup/${id}`, {
          method: 'PUT',
          token: writer.token,
          headers: { 'if-match': '"1"' },
          json: schedule({ title: `Racer ${i}` }),
        }),
      ),
    );
    expect(results.map((r) => r.status).sort()).toEqual([200, 412, 412, 412, 412, 412]);
  });

  it('refuses a range that would leave slots outside, saying how many, at the bound that excludes them', async () => {
    const { id } = await create({
      slots: [slot('2026-03-01'), slot('2026-03-01', '08:00'), slot('2026-03-31')],
    });
    const res = await content(`/api/v1/lineup/${id}`, {
      method: 'PUT',
      token: writer.token,
      json: schedule({ effective_from: '2026-03-02', effective_to: '2026-03-30' }),
    });
    expect(res.status).toBe(422);
    expect(res.body.detail).toEqual([
      { loc: ['body', 'effective_from'], msg: expect.stringContaining('2 slot'), type: 'value_error' },
      { loc: ['body', 'effective_to'], msg: expect.stringContaining('1 slot'), type: 'value_error' },
    ]);
    const fits = await content(`/api/v1/lineup/${id}`, {
      method: 'PUT',
      token: writer.token,
      json: schedule({ effective_from: '2026-03-01', effective_to: '2026-03-31', month: 4 }),
    });
    expect(fits.status).toBe(200);
  });

  it('answers 404 for an unknown schedule and 422 for a malformed id (path)', async () => {
    const unknown = await content(`/api/v1/lineup/${randomUUID()}`, {
      method: 'PUT',
      token: writer.token,
      json: schedule(),
    });
    expect(unknown.status).toBe(404);
    const bad = await content('/api/v1/lineup/nope', {
      method: 'PUT',
      token: writer.token,
      json: schedule(),
    });
    expect(bad.status).toBe(422);
    expect(bad.body.detail[0].loc).toEqual(['path', 'id']);
  });

  it('needs lineup:write', async () => {
    const { id } = await create();
    expect(
      (await content(`/api/v1/lineup/${id}`, { method: 'PUT', token: reader(), json: schedule() })).status,
    ).toBe(403);
  });
});

describe('GET lists', () => {
  it('filters schedules by medium, channel, month and year, newest month first, paged with cursors', async () => {
    const channel = `ch-${randomUUID().slice(0, 8)}`;
    for (const [medium, month] of [
      ['RADIO', 1],
      ['RADIO', 2],
      ['RADIO', 3],
      ['TV', 2],
    ] as const)
      await create({ medium, channel, month });
    const res = await content(`/api/v1/lineup?channel=${channel}&medium=RADIO&page_size=2`, {
      token: reader(),
    });
    expect(res.status).toBe(200);
    expect(res.body.results.map((s: any) => s.month)).toEqual([3, 2]);
    expect(res.body.results[0].uploaded_by).toEqual({
      id: writer.id,
      name: writer.name,
      employee_number: writer.employee_number,
    });
    const next = await follow(res.body.next, reader());
    expect(next.body.results.map((s: any) => s.month)).toEqual([1]);
    expect(next.body.next).toBeNull();
    const only = await content(`/api/v1/lineup?channel=${channel}&month=2&year=2026`, { token: reader() });
    expect(only.body.results.map((s: any) => s.medium).sort()).toEqual(['RADIO', 'TV']);
    const bad = await content('/api/v1/lineup?medium=PODCAST&month=x', { token: reader() });
    expect(bad.status).toBe(422);
    expect(bad.body.detail.map((i: any) => i.loc)).toEqual([
      ['query', 'medium'],
      ['query', 'month'],
    ]);
  });

  it('lists slots by air_date, start_time, id with the contract shape, walking every page', async () => {
    const { id } = await create({
      slots: [
        slot('2026-03-02', '10:00'),
        slot('2026-03-01', '23:00'),
        slot('2026-03-02', '09:30'),
        slot('2026-03-01', '05:00'),
      ],
    });
    let res = await content(`/api/v1/lineup/${id}/slots?page_size=3`, { token: reader() });
    expect(res.status).toBe(200);
    expect(res.body.results[0]).toEqual({
      id: expect.any(String),
      air_date: '2026-03-01',
      start_time: '05:00',
      duration_seconds: 1800,
      title: 'Slot 2026-03-01 05:00',
      assets: [],
    });
    const seen = res.body.results.map((s: any) => `${s.air_date} ${s.start_time}`);
    res = await follow(res.body.next, reader());
    seen.push(...res.body.results.map((s: any) => `${s.air_date} ${s.start_time}`));
    expect(seen).toEqual(['2026-03-01 05:00', '2026-03-01 23:00', '2026-03-02 09:30', '2026-03-02 10:00']);
    expect(res.body.next).toBeNull();
    expect((await content(`/api/v1/lineup/${randomUUID()}/slots`, { token: reader() })).status).toBe(404);
    // a bad cursor is a 422 (query) before an unknown schedule's 404
    const badCursor = await content(`/api/v1/lineup/${randomUUID()}/slots?cursor=abc.def`, {
      token: reader(),
    });
    expect(badCursor.status).toBe(422);
    expect(badCursor.body.detail[0].loc).toEqual(['query', 'cursor']);
    // an empty schedule is an empty list, not a 404
    const empty = await create();
    const none = await content(`/api/v1/lineup/${empty.id}/slots`, { token: reader() });
    expect(none.body).toEqual({ results: [], next: null, previous: null });
  });

  it('needs lineup:read', async () => {
    expect((await content('/api/v1/lineup', { token: tokenWith(['story-categories:read']) })).status).toBe(
      403,
    );
  });
});

describe('bodies and reads', () => {
  it('refuses a file on PUT (only POST takes one), two CSV files, and a JSON null body', async () => {
    const { id } = await create();
    const put = new FormData();
    for (const [k, v] of Object.entries(schedule())) put.append(k, String(v));
    put.append('file', new Blob(['x']), 'x.csv');
    const withFile = await content(`/api/v1/lineup/${id}`, {
      method: 'PUT',
      token: writer.token,
      multipart: put,
    });
    expect(withFile.status).toBe(422);
    expect(withFile.body.detail.map((i: any) => i.loc)).toEqual([['body', 'file']]);

    const two = new FormData();
    for (const [k, v] of Object.entries(schedule())) two.append(k, String(v));
    const csv = 'air_date,start_time,duration_seconds,title\n2026-03-01,06:00,60,x';
    two.append('file', new Blob([csv]), 'a.csv');
    two.append('file', new Blob([csv]), 'b.csv');
    const twice = await content('/api/v1/lineup', { token: writer.token, multipart: two });
    expect(twice.status).toBe(422);
    expect(twice.body.detail).toEqual([{ loc: ['body', 'file'], msg: expect.any(String), type: 'too_long' }]);

    const nul = await content('/api/v1/lineup', {
      token: writer.token,
      raw: 'null',
      headers: { 'content-type': 'application/json' },
    });
    expect(nul.status).toBe(422);
    expect(nul.body.detail[0]).toMatchObject({ loc: ['body'], type: 'model_type' });
  });

  it('answers multipart on story categories with 415 (only declared routes read it)', async () => {
    const form = new FormData();
    form.append('name', 'x');
    const res = await content('/api/v1/story-categories', {
      token: tokenWith(['story-categories:write']),
      multipart: form,
    });
    expect(res.status).toBe(415);
  });

  it('reads one schedule (404 unknown, 422 malformed id, 403 without lineup:read)', async () => {
    const { id } = await create();
    const res = await content(`/api/v1/lineup/${id}`, { token: reader() });
    expect(res.status).toBe(200);
    expect(res.body.id).toBe(id);
    expect((await content(`/api/v1/lineup/${randomUUID()}`, { token: reader() })).status).toBe(404);
    expect((await content('/api/v1/lineup/x', { token: reader() })).body.detail[0].loc).toEqual([
      'path',
      'id',
    ]);
    expect((await content(`/api/v1/lineup/${id}`, { token: tokenWith(['lineup:write']) })).status).toBe(403);
  });
});
