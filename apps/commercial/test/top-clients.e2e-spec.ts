/**
 * Top clients (docs/api/contract.md §4.8), over the real stack. Each test puts its deals in a
 * period of its own (far-future months, 2025, or this year with revenues large enough to lead),
 * so the tests do not see each other's clients.
 */
import { commercialDb, createClient, createDeal, tokenWith, topClients, unique, utcDay } from './support';

const THIS_YEAR = new Date().getUTCFullYear();

describe('GET /commercial/api/v1/analytics/sales/top-clients', () => {
  it('ranks WON revenue of the month by revenue then name, with hand-computed largest-remainder shares', async () => {
    const tag = unique('rank');
    const alpha = await createClient(`Alpha ${tag}`, 'AUTOMOTIVE');
    const beta = await createClient(`Beta ${tag}`, 'BANKING');
    const gamma = await createClient(`Gamma ${tag}`, 'FMCG');
    const lostOnly = await createClient(`Lost ${tag}`, 'FMCG');
    await Promise.all([
      createDeal(alpha.id, '1000.00', '2101-03-01'),
      createDeal(alpha.id, '500.50', '2101-03-31'),
      createDeal(alpha.id, '999.00', '2101-03-15', 'LOST'),
      createDeal(alpha.id, '50.00', '2101-03-15', 'PENDING'),
      createDeal(alpha.id, '7000.00', '2101-04-01'),
      createDeal(alpha.id, '7000.00', '2101-02-28'),
      createDeal(beta.id, '1500.50', '2101-03-10'),
      createDeal(gamma.id, '250', '2101-03-20'),
      createDeal(lostOnly.id, '9999.00', '2101-03-20', 'LOST'),
    ]);
    const res = await topClients('?period=2101-03');
    expect(res.status).toBe(200);
    // total 3251.00: 1500.50/3251 = 46.155029..%, 250/3251 = 7.689941..%; floors 46.15+46.15+7.68
    // = 99.98; the two missing 0.01 go to Gamma (remainder .99) and then Alpha (tied with Beta,
    // ranked above it by name).
    expect(res.body).toEqual([
      {
        client_name: `Alpha ${tag}`,
        category: 'AUTOMOTIVE',
        deal_count: 2,
        total_contracted_revenue: '1500.50',
        revenue_share_pct: '46.16',
      },
      {
        client_name: `Beta ${tag}`,
        category: 'BANKING',
        deal_count: 1,
        total_contracted_revenue: '1500.50',
        revenue_share_pct: '46.15',
      },
      {
        client_name: `Gamma ${tag}`,
        category: 'FMCG',
        deal_count: 1,
        total_contracted_revenue: '250.00',
        revenue_share_pct: '7.69',
      },
    ]);
  });

  it('gives the extra 0.01 of three tied clients to the first by name, and a single row 100.00', async () => {
    const tag = unique('tie');
    const clients = await Promise.all(['C', 'A', 'B'].map((n) => createClient(`${n} ${tag}`)));
    await Promise.all(clients.map((c) => createDeal(c.id, '100.00', '2103-05-05')));
    const res = await topClients('?period=2103-05');
    expect(res.status).toBe(200);
    expect(res.body.map((r: any) => [r.client_name, r.revenue_share_pct])).toEqual([
      [`A ${tag}`, '33.34'],
      [`B ${tag}`, '33.33'],
      [`C ${tag}`, '33.33'],
    ]);
    const one = await topClients('?period=2103-05&limit=1');
    expect(one.body).toEqual([
      expect.objectContaining({ client_name: `A ${tag}`, revenue_share_pct: '100.00' }),
    ]);
  });

  it('reads Q4-2025 as October to December and YTD-2025 as the whole past year', async () => {
    const tag = unique('past');
    const x = await createClient(`X ${tag}`);
    const y = await createClient(`Y ${tag}`);
    await Promise.all([
      createDeal(x.id, '300.00', '2025-10-01'),
      createDeal(x.id, '200.00', '2025-12-31'),
      createDeal(y.id, '1000.00', '2025-09-30'),
      createDeal(y.id, '4000.00', '2024-12-31'),
    ]);
    const quarter = await topClients('?period=Q4-2025');
    expect(quarter.body).toEqual([
      {
        client_name: `X ${tag}`,
        category: 'RETAIL',
        deal_count: 2,
        total_contracted_revenue: '500.00',
        revenue_share_pct: '100.00',
      },
    ]);
    const year = await topClients('?period=YTD-2025');
    expect(
      year.body.map((r: any) => [
        r.client_name,
        r.deal_count,
        r.total_contracted_revenue,
        r.revenue_share_pct,
      ]),
    ).toEqual([
      [`Y ${tag}`, 1, '1000.00', '66.67'],
      [`X ${tag}`, 2, '500.00', '33.33'],
    ]);
  });

  it('reads this year to date as January 1 to today (deals dated later excluded), and defaults to the current month', async () => {
    const tag = unique('now');
    const p = await createClient(`P ${tag}`);
    const q = await createClient(`Q ${tag}`);
    const r = await createClient(`R ${tag}`);
    const today = utcDay(0);
    const tomorrow = utcDay(1);
    const january = `${THIS_YEAR}-01-01`;
    await Promise.all([
      createDeal(p.id, '900000000000000.00', today),
      createDeal(p.id, '800000000000000.00', tomorrow),
      createDeal(q.id, '300000000000000.00', january),
      // R's only deal is dated tomorrow: R has no WON deal up to today.
      createDeal(r.id, '990000000000000.00', tomorrow),
    ]);
    const ytd = await topClients(`?period=YTD-${THIS_YEAR}&limit=2`);
    expect(ytd.status).toBe(200);
    expect(ytd.body).toEqual([
      {
        client_name: `P ${tag}`,
        category: 'RETAIL',
        deal_count: 1,
        total_contracted_revenue: '900000000000000.00',
        revenue_share_pct: '75.00',
      },
      {
        client_name: `Q ${tag}`,
        category: 'RETAIL',
        deal_count: 1,
        total_contracted_revenue: '300000000000000.00',
        revenue_share_pct: '25.00',
      },
    ]);

    // The current month: today's deals, plus tomorrow's when it falls in the same month.
    const month = today.slice(0, 7);
    const sameMonth = tomorrow.startsWith(month);
    const expected = [
      ...(sameMonth ? [{ name: `P ${tag}`, revenue: '1700000000000000.00' }] : []),
      ...(sameMonth ? [{ name: `R ${tag}`, revenue: '990000000000000.00' }] : []),
      ...(sameMonth ? [] : [{ name: `P ${tag}`, revenue: '900000000000000.00' }]),
      ...(january.startsWith(month) ? [{ name: `Q ${tag}`, revenue: '300000000000000.00' }] : []),
    ];
    const byDefault = await topClients(`?limit=${expected.length}`);
    const explicit = await topClients(`?period=${month}&limit=${expected.length}`);
    expect(byDefault.body).toEqual(explicit.body);
    expect(byDefault.body.map((row: any) => [row.client_name, row.total_contracted_revenue])).toEqual(
      expected.map((e) => [e.name, e.revenue]),
    );
  });

  it('answers [] for a period without WON deals', async () => {
    const res = await topClients('?period=2150-06');
    expect(res.status).toBe(200);
    expect(res.body).toEqual([]);
  });

  describe('limit', () => {
    const period = '2102-01';
    let names: string[];

    beforeAll(async () => {
      const tag = unique('limit');
      // 55 clients with 100.00 .. 5500.00: ranked from the largest.
      const clients: { name: string; id: string }[] = [];
      for (let i = 1; i <= 55; i += 11) {
        clients.push(
          ...(
            await Promise.all(
              Array.from({ length: 11 }, (_, j) => createClient(`L${String(i + j).padStart(2, '0')} ${tag}`)),
            )
          ).map((c) => ({ name: c.name as string, id: c.id as string })),
        );
      }
      for (let i = 0; i < clients.length; i += 11) {
        await Promise.all(
          clients.slice(i, i + 11).map((c, j) => createDeal(c.id, `${(i + j + 1) * 100}.00`, '2102-01-15')),
        );
      }
      names = clients.map((c) => c.name).reverse();
    }, 120_000);

    const sumOf = (rows: any[]) =>
      rows.reduce((s, r) => s + Math.round(Number(r.revenue_share_pct) * 100), 0);

    it.each([
      ['', 10],
      ['&limit=10', 10],
      ['&limit=1', 1],
      ['&limit=0', 1],
      ['&limit=-5', 1],
      ['&limit=49', 49],
      ['&limit=50', 50],
      ['&limit=51', 50],
      ['&limit=100000', 50],
    ])(
      'limit%s answers %i rows ranked by revenue, shares summing to exactly 100.00',
      async (query, count) => {
        const res = await topClients(`?period=${period}${query}`);
        expect(res.status).toBe(200);
        expect(res.body.map((r: any) => r.client_name)).toEqual(names.slice(0, count));
        expect(sumOf(res.body)).toBe(10_000);
        for (const row of res.body) expect(row.revenue_share_pct).toMatch(/^\d{1,3}\.\d{2}$/);
      },
    );

    it.each(['1.5', 'abc', '', '1e3x', 'ten'])(
      'refuses limit=%p with 422 at ["query","limit"]',
      async (value) => {
        const res = await topClients(`?period=${period}&limit=${value}`);
        expect(res.status).toBe(422);
        expect(res.body.detail).toEqual([
          { loc: ['query', 'limit'], msg: expect.any(String), type: 'int_parsing' },
        ]);
      },
    );
  });

  it.each([
    '2026-13',
    '2026-00',
    'Q5-2026',
    'Q0-2026',
    'q1-2026',
    'ytd-2025',
    `YTD-${THIS_YEAR + 1}`,
    '2026-1',
    'Q1-26',
    '2026',
    '',
    'YTD-2025x',
  ])('refuses period=%p with 422 at ["query","period"]', async (period) => {
    const res = await topClients(`?period=${encodeURIComponent(period)}`);
    expect(res.status).toBe(422);
    expect(res.body.detail).toEqual([
      { loc: ['query', 'period'], msg: expect.any(String), type: 'value_error' },
    ]);
  });

  it('accepts the boundaries next to the refused periods', async () => {
    for (const period of [
      '2026-12',
      '2026-01',
      'Q4-2026',
      'Q1-2026',
      `YTD-${THIS_YEAR}`,
      '0001-01',
      '9999-12',
    ]) {
      expect((await topClients(`?period=${period}`)).status).toBe(200);
    }
  });

  it('reports a bad limit and a bad period together', async () => {
    const res = await topClients('?period=q1-2026&limit=x');
    expect(res.status).toBe(422);
    expect(res.body.detail.map((d: any) => d.loc)).toEqual(
      expect.arrayContaining([
        ['query', 'limit'],
        ['query', 'period'],
      ]),
    );
  });

  it('needs analytics:sales (403 before 422) and a token (401)', async () => {
    const forbidden = await topClients('?period=bad', tokenWith(['bookings:read']));
    expect(forbidden.status).toBe(403);
    expect(forbidden.body).toEqual({ detail: expect.any(String), code: 'forbidden' });
    const anonymous = await topClients('?period=2026-01', '');
    expect(anonymous.status).toBe(401);
    expect(anonymous.body.code).toBe('not_authenticated');
  });

  it('stays exact when deals of one client arrive concurrently, and when a deal is changed or removed', async () => {
    const client = await createClient(unique('race'));
    await Promise.all(
      Array.from({ length: 25 }, (_, i) => createDeal(client.id, `${i + 1}.01`, '2104-07-04')),
    );
    // 1.01 + 2.01 + ... + 25.01 = 325 + 0.25
    const before = await topClients('?period=2104-07');
    expect(before.body).toEqual([
      expect.objectContaining({
        client_name: client.name,
        deal_count: 25,
        total_contracted_revenue: '325.25',
      }),
    ]);

    // What the API cannot do yet, the rollup's trigger must still follow.
    await commercialDb(
      `UPDATE deals SET status = 'LOST' WHERE client_id = $1 AND contracted_revenue = 25.01`,
      [client.id],
    );
    await commercialDb(
      `UPDATE deals SET contract_date = '2104-08-01' WHERE client_id = $1 AND contracted_revenue = 24.01`,
      [client.id],
    );
    await commercialDb(
      `UPDATE deals SET contracted_revenue = 100 WHERE client_id = $1 AND contracted_revenue = 1.01`,
      [client.id],
    );
    await commercialDb(`DELETE FROM deals WHERE client_id = $1 AND contracted_revenue = 2.01`, [client.id]);
    const after = await topClients('?period=2104-07');
    // 325.25 - 25.01 - 24.01 - 1.01 + 100 - 2.01
    expect(after.body).toEqual([
      expect.objectContaining({ deal_count: 22, total_contracted_revenue: '373.21' }),
    ]);
    const august = await topClients('?period=2104-08');
    expect(august.body).toEqual([
      expect.objectContaining({ deal_count: 1, total_contracted_revenue: '24.01' }),
    ]);
  });
});

describe('client_won_totals', () => {
  it('matches a plain count of WON deals for every client, month and year', async () => {
    const mismatches = await commercialDb(`
      WITH truth AS (
        SELECT g.grain, g.period, d.client_id, count(*)::int AS deals, sum(d.contracted_revenue) AS revenue
          FROM deals d
         CROSS JOIN LATERAL (VALUES ('d'::"char", d.contract_date),
                                    ('m'::"char", date_trunc('month', d.contract_date)::date),
                                    ('q'::"char", date_trunc('quarter', d.contract_date)::date),
                                    ('y'::"char", date_trunc('year', d.contract_date)::date)) AS g (grain, period)
         WHERE d.status = 'WON'
         GROUP BY 1, 2, 3
      )
      SELECT * FROM truth t
      FULL JOIN (SELECT * FROM client_won_totals WHERE deals <> 0 OR revenue <> 0) s
        ON s.grain = t.grain AND s.period = t.period AND s.client_id = t.client_id
      WHERE t.deals IS DISTINCT FROM s.deals OR t.revenue IS DISTINCT FROM s.revenue`);
    expect(mismatches).toEqual([]);
  });
});
