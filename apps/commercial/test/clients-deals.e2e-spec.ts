/** Clients and deals (docs/api/contract.md §4a, §3): create, validate, list by cursor. */
import { randomUUID } from 'node:crypto';
import {
  commercial,
  commercialDb,
  createClient,
  createDeal,
  follow,
  salesToken,
  tokenWith,
  unique,
  utcDay,
} from './support';

describe('POST /commercial/api/v1/clients', () => {
  it('creates a client (201) with every field', async () => {
    const name = unique('Acme');
    const res = await commercial('/api/v1/clients', {
      token: salesToken(),
      json: { name: ` ${name} `, category: 'TELCO' },
    });
    expect(res.status).toBe(201);
    expect(res.body).toEqual({
      id: expect.stringMatching(/^[0-9a-f-]{36}$/),
      name,
      category: 'TELCO',
      created_at: expect.stringMatching(/Z$/),
      updated_at: expect.stringMatching(/Z$/),
    });
  });

  it('answers one 201 and 409 client_name_taken for the rest when one name is created concurrently', async () => {
    const name = unique('Twin');
    const results = await Promise.all(
      Array.from({ length: 6 }, () =>
        commercial('/api/v1/clients', { token: salesToken(), json: { name, category: 'X' } }),
      ),
    );
    expect(results.map((r) => r.status).sort()).toEqual([201, 409, 409, 409, 409, 409]);
    expect(results.find((r) => r.status === 409)!.body).toEqual({
      detail: expect.any(String),
      code: 'client_name_taken',
    });
    expect(await commercialDb(`SELECT count(*)::int AS n FROM clients WHERE name = $1`, [name])).toEqual([
      { n: 1 },
    ]);
  });

  it('refuses missing, empty, too long and extra fields with 422, every field reported', async () => {
    const res = await commercial('/api/v1/clients', {
      token: salesToken(),
      json: { name: 'x'.repeat(256), category: '', extra: 1 },
    });
    expect(res.status).toBe(422);
    expect(res.body.detail).toEqual(
      expect.arrayContaining([
        { loc: ['body', 'name'], msg: expect.any(String), type: 'string_too_long' },
        { loc: ['body', 'category'], msg: expect.any(String), type: 'string_too_short' },
        { loc: ['body', 'extra'], msg: expect.any(String), type: 'extra_forbidden' },
      ]),
    );
    const missing = await commercial('/api/v1/clients', { token: salesToken(), json: {} });
    expect(missing.body.detail).toEqual([
      { loc: ['body', 'name'], msg: 'Field required', type: 'missing' },
      { loc: ['body', 'category'], msg: 'Field required', type: 'missing' },
    ]);
    const longest = await commercial('/api/v1/clients', {
      token: salesToken(),
      json: { name: `${unique('n')}${'x'.repeat(243)}`, category: 'c'.repeat(100) },
    });
    expect(longest.status).toBe(201);
    const tooLongCategory = await commercial('/api/v1/clients', {
      token: salesToken(),
      json: { name: unique('n'), category: 'c'.repeat(101) },
    });
    expect(tooLongCategory.body.detail).toEqual([
      { loc: ['body', 'category'], msg: expect.any(String), type: 'string_too_long' },
    ]);
  });

  it('needs analytics:sales', async () => {
    const res = await commercial('/api/v1/clients', { token: tokenWith(['bookings:write']), json: {} });
    expect(res.status).toBe(403);
  });

  it('lists clients by name in byte order with cursors both ways', async () => {
    const tag = unique('list');
    // byte order: upper case before lower case
    for (const n of ['b', 'B', 'a', 'A']) await createClient(`~${tag} ${n}`);
    const first = await commercial(`/api/v1/clients?page_size=2`, { token: salesToken() });
    expect(first.status).toBe(200);
    expect(first.body.previous).toBeNull();
    // The "~" names sort after every other test's names: walk to the end.
    let page = first;
    const seen: string[] = [...first.body.results.map((c: any) => c.name)];
    while (page.body.next) {
      page = await follow(page.body.next, salesToken());
      seen.push(...page.body.results.map((c: any) => c.name));
    }
    expect(seen.filter((n) => n.startsWith(`~${tag}`))).toEqual(
      ['A', 'B', 'a', 'b'].map((n) => `~${tag} ${n}`),
    );
    expect([...seen].sort((x, y) => Buffer.compare(Buffer.from(x), Buffer.from(y)))).toEqual(seen);
    const back = await follow(page.body.previous, salesToken());
    expect(back.status).toBe(200);
    expect(back.body.results).toHaveLength(2);
  });

  it.each(['0', '101', 'x'])('refuses page_size=%s, and a changed cursor, at their loc', async (size) => {
    const res = await commercial(`/api/v1/clients?page_size=${size}`, { token: salesToken() });
    expect(res.status).toBe(422);
    expect(res.body.detail[0].loc).toEqual(['query', 'page_size']);
    const cursor = await commercial(`/api/v1/clients?cursor=abc.def`, { token: salesToken() });
    expect(cursor.body.detail).toEqual([
      { loc: ['query', 'cursor'], msg: expect.any(String), type: 'value_error' },
    ]);
  });
});

describe('POST /commercial/api/v1/deals', () => {
  it('creates a WON deal by default, money as a two-decimal string from text or a JSON number', async () => {
    const client = await createClient();
    const res = await commercial('/api/v1/deals', {
      token: salesToken(),
      json: { client_id: client.id, contracted_revenue: 1250.5, contract_date: '2090-02-28' },
    });
    expect(res.status).toBe(201);
    expect(res.body).toEqual({
      id: expect.any(String),
      client_id: client.id,
      contracted_revenue: '1250.50',
      contract_date: '2090-02-28',
      status: 'WON',
      created_at: expect.stringMatching(/Z$/),
      updated_at: expect.stringMatching(/Z$/),
    });
    const text = await createDeal(client.id, '0', '2090-03-01', 'PENDING');
    expect(text).toMatchObject({ contracted_revenue: '0.00', status: 'PENDING' });
  });

  it('dates a deal today (UTC) by default', async () => {
    const client = await createClient();
    const res = await commercial('/api/v1/deals', {
      token: salesToken(),
      json: { client_id: client.id, contracted_revenue: '1.00', status: 'LOST' },
    });
    expect(res.status).toBe(201);
    expect([utcDay(-1), utcDay(0)]).toContain(res.body.contract_date);
  });

  it('refuses an unknown client at ["body","client_id"]', async () => {
    const res = await commercial('/api/v1/deals', {
      token: salesToken(),
      json: { client_id: randomUUID(), contracted_revenue: '1.00', contract_date: '2090-01-01' },
    });
    expect(res.status).toBe(422);
    expect(res.body.detail).toEqual([
      { loc: ['body', 'client_id'], msg: expect.any(String), type: 'value_error' },
    ]);
  });

  it('refuses bad money, dates and statuses, every field reported', async () => {
    const res = await commercial('/api/v1/deals', {
      token: salesToken(),
      json: { client_id: 'nope', contracted_revenue: '12.345', contract_date: '2024-02-30', status: 'won' },
    });
    expect(res.status).toBe(422);
    expect(res.body.detail).toEqual(
      expect.arrayContaining([
        { loc: ['body', 'client_id'], msg: expect.any(String), type: 'uuid_parsing' },
        { loc: ['body', 'contracted_revenue'], msg: expect.any(String), type: 'decimal_parsing' },
        { loc: ['body', 'contract_date'], msg: expect.any(String), type: 'date_parsing' },
        { loc: ['body', 'status'], msg: expect.any(String), type: 'enum' },
      ]),
    );
    const client = await createClient();
    for (const [field, value] of [
      ['contracted_revenue', '-0.01'],
      ['contracted_revenue', '1e3'],
      ['contracted_revenue', '1000000000000000.00'],
      ['contract_date', '0000-12-31'],
    ]) {
      const bad = await commercial('/api/v1/deals', {
        token: salesToken(),
        json: {
          client_id: client.id,
          contracted_revenue: '1.00',
          contract_date: '2090-01-01',
          [field]: value,
        },
      });
      expect([bad.status, bad.body.detail[0].loc]).toEqual([422, ['body', field]]);
    }
    const largest = await createDeal(client.id, '999999999999999.99', '0001-01-01', 'LOST');
    expect(largest.contracted_revenue).toBe('999999999999999.99');
  });

  it('lists deals latest contract_date first, filtered by client and status', async () => {
    const client = await createClient();
    const dates = ['2091-01-02', '2091-01-01', '2091-01-03'];
    const created = [];
    for (const d of dates) created.push(await createDeal(client.id, '10.00', d));
    await createDeal(client.id, '10.00', '2091-01-04', 'LOST');
    const res = await commercial(`/api/v1/deals?client_id=${client.id}&status=WON&page_size=2`, {
      token: salesToken(),
    });
    expect(res.status).toBe(200);
    expect(res.body.results.map((d: any) => d.contract_date)).toEqual(['2091-01-03', '2091-01-02']);
    expect(res.body.next).toContain(`client_id=${client.id}`);
    const next = await follow(res.body.next, salesToken());
    expect(next.body.results.map((d: any) => d.contract_date)).toEqual(['2091-01-01']);
    expect(next.body.next).toBeNull();
    expect(created).toHaveLength(3);
    const bad = await commercial(`/api/v1/deals?status=DONE&client_id=x`, { token: salesToken() });
    expect(bad.body.detail.map((d: any) => d.loc)).toEqual([
      ['query', 'client_id'],
      ['query', 'status'],
    ]);
  });
});
