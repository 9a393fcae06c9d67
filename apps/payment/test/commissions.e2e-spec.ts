/** Plans, targets and collections (docs/api/contract.md §4a, §3): create, replace, upsert, validate, list. */
import { randomUUID } from 'node:crypto';
import {
  createUser,
  financeToken,
  follow,
  payment,
  paymentDb,
  postCollection,
  postPlan,
  postTarget,
  tokenWith,
  unique,
  type TestUser,
} from './support';

let bm: TestUser;

beforeAll(async () => {
  bm = await createUser({ first_name: 'Plan', last_name: 'Tester', roles: ['BM'] });
});

describe('POST /payment/api/v1/commissions/plans', () => {
  it('creates a plan (201) with tiers by threshold, and replaces it (200, same id)', async () => {
    const category = unique('TV');
    const created = await postPlan(category, [
      ['100', '5.5'],
      ['0', '0'],
      ['80.5', '3.25'],
    ]);
    expect(created.status).toBe(201);
    expect(created.body).toEqual({
      id: expect.any(String),
      category,
      tiers: [
        { min_achievement_pct: '0.00', rate_pct: '0.00' },
        { min_achievement_pct: '80.50', rate_pct: '3.25' },
        { min_achievement_pct: '100.00', rate_pct: '5.50' },
      ],
      created_at: expect.stringMatching(/Z$/),
      updated_at: expect.stringMatching(/Z$/),
    });
    const replaced = await payment('/api/v1/commissions/plans', {
      token: financeToken(),
      json: { category, tiers: [{ min_achievement_pct: 10000, rate_pct: 100 }] },
    });
    expect(replaced.status).toBe(200);
    expect(replaced.body).toMatchObject({
      id: created.body.id,
      tiers: [{ min_achievement_pct: '10000.00', rate_pct: '100.00' }],
    });
  });

  it('ends with exactly one of the concurrent replacements, never a mix', async () => {
    const category = unique('RADIO');
    const sets: [string, string][][] = Array.from({ length: 6 }, (_, i) => [
      [`${i}`, '1'],
      [`${50 + i}`, '2'],
      [`${100 + i}`, '3'],
    ]);
    const results = await Promise.all(sets.map((tiers) => postPlan(category, tiers)));
    expect(results.map((r) => r.status).sort()).toEqual([200, 200, 200, 200, 200, 201]);
    const list = await payment('/api/v1/commissions/plans?page_size=100', { token: financeToken() });
    let page = list;
    const plans = [...page.body.results];
    while (page.body.next) {
      page = await follow(page.body.next, financeToken());
      plans.push(...page.body.results);
    }
    const mine = plans.filter((p: any) => p.category === category);
    expect(mine).toHaveLength(1);
    const mins = mine[0].tiers.map((t: any) => Number(t.min_achievement_pct));
    expect(mins).toHaveLength(3);
    expect(sets.map((s) => s.map(([m]) => Number(m)))).toContainEqual(mins);
  });

  it('refuses bad tiers at their own loc, every one reported', async () => {
    const res = await payment('/api/v1/commissions/plans', {
      token: financeToken(),
      json: {
        category: '',
        tiers: [
          { min_achievement_pct: '-1', rate_pct: '100.01' },
          { min_achievement_pct: '10000.01', rate_pct: '1.234' },
          { rate_pct: '1', extra: true },
        ],
      },
    });
    expect(res.status).toBe(422);
    expect(res.body.detail).toEqual(
      expect.arrayContaining([
        { loc: ['body', 'category'], msg: expect.any(String), type: 'string_too_short' },
        {
          loc: ['body', 'tiers', '0', 'min_achievement_pct'],
          msg: expect.any(String),
          type: 'decimal_parsing',
        },
        { loc: ['body', 'tiers', '0', 'rate_pct'], msg: expect.any(String), type: 'decimal_parsing' },
        {
          loc: ['body', 'tiers', '1', 'min_achievement_pct'],
          msg: expect.any(String),
          type: 'decimal_parsing',
        },
        { loc: ['body', 'tiers', '1', 'rate_pct'], msg: expect.any(String), type: 'decimal_parsing' },
        { loc: ['body', 'tiers', '2', 'min_achievement_pct'], msg: 'Field required', type: 'missing' },
        { loc: ['body', 'tiers', '2', 'extra'], msg: expect.any(String), type: 'extra_forbidden' },
      ]),
    );
    const empty = await postPlan(unique('x'), []);
    expect(empty.body.detail).toEqual([
      { loc: ['body', 'tiers'], msg: expect.any(String), type: 'too_short' },
    ]);
    const many = await postPlan(
      unique('x'),
      Array.from({ length: 21 }, (_, i) => [`${i}`, '1'] as [string, string]),
    );
    expect(many.body.detail).toEqual([{ loc: ['body', 'tiers'], msg: expect.any(String), type: 'too_long' }]);
    const twenty = await postPlan(
      unique('x'),
      Array.from({ length: 20 }, (_, i) => [`${i}`, '1'] as [string, string]),
    );
    expect(twenty.status).toBe(201);
  });

  it('refuses two tiers at one threshold at the later index', async () => {
    const res = await postPlan(unique('dup'), [
      ['80', '1'],
      ['90', '2'],
      ['80.00', '3'],
    ]);
    expect(res.status).toBe(422);
    expect(res.body.detail).toEqual([
      { loc: ['body', 'tiers', '2', 'min_achievement_pct'], msg: expect.any(String), type: 'value_error' },
    ]);
  });

  it('needs commissions:read-all (commissions:read is not enough)', async () => {
    const res = await payment('/api/v1/commissions/plans', {
      token: tokenWith(['commissions:read']),
      json: { category: 'x', tiers: [] },
    });
    expect([res.status, res.body.code]).toEqual([403, 'forbidden']);
    const list = await payment('/api/v1/commissions/plans', { token: tokenWith(['commissions:read']) });
    expect(list.status).toBe(403);
  });
});

describe('POST /payment/api/v1/commissions/targets', () => {
  it('upserts on (bm, category, month, year): one row, one 201, the rest 200, under a race', async () => {
    const category = unique('race');
    const results = await Promise.all(
      Array.from({ length: 8 }, (_, i) => postTarget(bm.id, category, 2032, 6, `${100 + i}.00`)),
    );
    expect(results.map((r) => r.status).sort()).toEqual([200, 200, 200, 200, 200, 200, 200, 201]);
    expect(new Set(results.map((r) => r.body.id)).size).toBe(1);
    const rows = await paymentDb(`SELECT target_amount::text FROM commission_targets WHERE category = $1`, [
      category,
    ]);
    expect(rows).toHaveLength(1);
    expect(results[0].body).toEqual({
      id: expect.any(String),
      bm_id: bm.id,
      category,
      month: 6,
      year: 2032,
      target_amount: expect.stringMatching(/^10\d\.00$/),
      created_at: expect.stringMatching(/Z$/),
      updated_at: expect.stringMatching(/Z$/),
    });
    // another month is another target
    expect((await postTarget(bm.id, category, 2032, 7, '1')).status).toBe(201);
  });

  it('refuses a BM acl does not know at ["body","bm_id"]', async () => {
    const res = await postTarget(randomUUID(), 'x', 2032, 1, '1');
    expect(res.status).toBe(422);
    expect(res.body.detail).toEqual([
      { loc: ['body', 'bm_id'], msg: expect.any(String), type: 'value_error' },
    ]);
  });

  it('refuses out-of-range months, years and amounts, and accepts the boundaries', async () => {
    const res = await payment('/api/v1/commissions/targets', {
      token: financeToken(),
      json: { bm_id: 'x', category: 'c', month: 13, year: 2019, target_amount: '-1' },
    });
    expect(res.body.detail.map((d: any) => [d.loc.join('.'), d.type])).toEqual([
      ['body.bm_id', 'uuid_parsing'],
      ['body.month', 'less_than_equal'],
      ['body.year', 'greater_than_equal'],
      ['body.target_amount', 'decimal_parsing'],
    ]);
    const zero = await payment('/api/v1/commissions/targets', {
      token: financeToken(),
      json: { bm_id: bm.id, category: 'c', month: 0, year: 2020, target_amount: '1.001' },
    });
    expect(zero.body.detail.map((d: any) => d.loc.join('.'))).toEqual(['body.month', 'body.target_amount']);
    const category = unique('edge');
    expect((await postTarget(bm.id, category, 2020, 1, '0')).status).toBe(201);
    expect(
      (await postTarget(bm.id, `${category}${'c'.repeat(100 - category.length)}`, 2020, 1, '0')).status,
    ).toBe(201);
    const long = await postTarget(bm.id, 'c'.repeat(101), 2020, 1, '0');
    expect(long.body.detail).toEqual([
      { loc: ['body', 'category'], msg: expect.any(String), type: 'string_too_long' },
    ]);
    const tooBig = await postTarget(bm.id, category, 2020, 1, '1000000000000000.00');
    expect(tooBig.body.detail).toEqual([
      { loc: ['body', 'target_amount'], msg: expect.any(String), type: 'decimal_parsing' },
    ]);
    expect((await postTarget(bm.id, category, 9999, 12, '999999999999999.99')).status).toBe(201);
  });

  it('lists targets newest first, filtered', async () => {
    const category = unique('list');
    for (const month of [1, 2, 3]) await postTarget(bm.id, category, 2033, month, '5');
    const res = await payment(`/api/v1/commissions/targets?category=${category}&page_size=2`, {
      token: financeToken(),
    });
    expect(res.status).toBe(200);
    expect(res.body.results.map((t: any) => t.month)).toEqual([3, 2]);
    const next = await follow(res.body.next, financeToken());
    expect(next.body.results.map((t: any) => t.month)).toEqual([1]);
    const filtered = await payment(
      `/api/v1/commissions/targets?category=${category}&month=2&year=2033&bm_id=${bm.id}`,
      {
        token: financeToken(),
      },
    );
    expect(filtered.body.results).toHaveLength(1);
  });
});

describe('POST /payment/api/v1/collections', () => {
  it('records a collection (201), now by default', async () => {
    const category = unique('col');
    const res = await payment('/api/v1/collections', {
      token: financeToken(),
      json: { bm_id: bm.id, category, amount: 0.01 },
    });
    expect(res.status).toBe(201);
    expect(res.body).toEqual({
      id: expect.any(String),
      bm_id: bm.id,
      category,
      amount: '0.01',
      collected_at: expect.stringMatching(/Z$/),
      created_at: expect.stringMatching(/Z$/),
    });
    expect(Math.abs(Date.parse(res.body.collected_at) - Date.now())).toBeLessThan(60_000);
  });

  it('refuses a zero amount, a bad instant and an unknown BM', async () => {
    const res = await payment('/api/v1/collections', {
      token: financeToken(),
      json: { bm_id: bm.id, category: 'c', amount: '0', collected_at: '2031-03-01' },
    });
    const missing = await payment('/api/v1/collections', { token: financeToken(), json: { category: 'c' } });
    expect(missing.body.detail).toEqual([
      { loc: ['body', 'bm_id'], msg: 'Field required', type: 'missing' },
      { loc: ['body', 'amount'], msg: 'Field required', type: 'missing' },
    ]);
    expect(res.body.detail.map((d: any) => [d.loc.join('.'), d.type])).toEqual([
      ['body.amount', 'decimal_parsing'],
      ['body.collected_at', 'datetime_parsing'],
    ]);
    const unknown = await payment('/api/v1/collections', {
      token: financeToken(),
      json: { bm_id: randomUUID(), category: 'c', amount: '1' },
    });
    expect(unknown.body.detail).toEqual([
      { loc: ['body', 'bm_id'], msg: expect.any(String), type: 'value_error' },
    ]);
  });

  it('lists collections latest first, filtered by BM and category', async () => {
    const category = unique('cl');
    await postCollection(bm.id, category, '1.00', '2031-01-01T00:00:00Z');
    await postCollection(bm.id, category, '2.00', '2031-01-03T00:00:00Z');
    await postCollection(bm.id, category, '3.00', '2031-01-02T00:00:00Z');
    const res = await payment(`/api/v1/collections?category=${category}&bm_id=${bm.id}&page_size=2`, {
      token: financeToken(),
    });
    expect(res.body.results.map((c: any) => c.amount)).toEqual(['2.00', '3.00']);
    const next = await follow(res.body.next, financeToken());
    expect(next.body.results.map((c: any) => c.amount)).toEqual(['1.00']);
    expect(next.body.previous).not.toBeNull();
  });
});
