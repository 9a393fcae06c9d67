/**
 * Team commission attainment (docs/api/contract.md §4.9), over the real stack with acl answering over
 * NATS. Each test reads a month of its own, so the tests do not see each other's rows.
 */
import { connect, type NatsConnection, type Subscription } from '@nats-io/transport-node';
import { ACL_USERS_MAX_IDS, AclSubjects } from '@media/contracts';
import {
  aclDb,
  attainment,
  createUser,
  paymentDb,
  postCollection,
  postPlan,
  postTarget,
  system,
  tokenWith,
  unique,
  type TestUser,
} from './support';

describe('GET /payment/api/v1/commissions/cm-team-attainment', () => {
  const tag = unique('t');
  const A = `A-${tag}`;
  const B = `B-${tag}`;
  const C = `C-${tag}`;
  let manager: TestUser;
  let ana: TestUser;
  let bruno: TestUser;
  let carla: TestUser;
  let dora: TestUser;

  beforeAll(async () => {
    manager = await createUser({ first_name: 'Manny', last_name: tag, roles: ['CM'] });
    [ana, bruno, carla, dora] = await Promise.all([
      createUser({
        first_name: 'Ana',
        last_name: tag,
        employee_number: `E1-${tag}`,
        roles: ['BM'],
        manager_id: manager.id,
      }),
      createUser({ first_name: 'Bruno', last_name: tag, roles: ['BM'], manager_id: manager.id }),
      createUser({ first_name: 'Carla', last_name: tag, roles: ['BM'] }),
      createUser({ first_name: 'Dora', last_name: tag, roles: ['BM'] }),
    ]);
    expect(
      (
        await postPlan(A, [
          ['50', '2'],
          ['100', '5.5'],
          ['80', '3.25'],
        ])
      ).status,
    ).toBe(201);
    expect((await postPlan(B, [['100', '10']])).status).toBe(201);
    // C has no plan.
    const first = await postTarget(ana.id, A, 2031, 3, '900.00');
    expect(first.status).toBe(201);
    const again = await postTarget(ana.id, A, 2031, 3, '1000');
    expect([again.status, again.body.id, again.body.target_amount]).toEqual([200, first.body.id, '1000.00']);
    await Promise.all([
      postTarget(ana.id, B, 2031, 3, '2000.00'),
      postTarget(ana.id, C, 2031, 3, '500.00'),
      postTarget(ana.id, A, 2031, 4, '1.00'),
      postTarget(bruno.id, A, 2031, 3, '0'),
      postTarget(carla.id, A, 2031, 3, '1000.00'),
      postTarget(dora.id, A, 2031, 3, '1000.00'),
      postTarget(dora.id, B, 2031, 3, '333.33'),
      postCollection(ana.id, A, '600.00', '2031-03-10T12:00:00Z'),
      postCollection(ana.id, A, '400', '2031-03-11T12:00:00+02:00'),
      postCollection(ana.id, B, '1999.99', '2031-03-15T00:00:00Z'),
      postCollection(ana.id, C, '250.00', '2031-03-20T00:00:00Z'),
      postCollection(bruno.id, A, '200.00', '2031-03-01T00:00:00Z'),
      postCollection(bruno.id, A, '100.00', '2031-03-31T23:59:59.999Z'),
      postCollection(bruno.id, A, '5000.00', '2031-04-01T00:00:00Z'),
      postCollection(bruno.id, A, '7000.00', '2031-02-28T23:59:59.999Z'),
      // 2031-04-01T00:30 in UTC+01:00 is still March 31 in UTC
      postCollection(bruno.id, B, '50.00', '2031-04-01T00:30:00+01:00'),
      postCollection(dora.id, A, '800.00', '2031-03-05T00:00:00Z'),
      postCollection(dora.id, B, '1000.00', '2031-03-05T00:00:00Z'),
    ]);
  }, 60_000);

  const row = (bm: TestUser, category: string, figures: (string | null)[]) => ({
    bm_id: bm.id,
    bm_name: bm.name,
    bm_email: bm.email,
    employee_number: bm.employee_number,
    category,
    target_amount: figures[0],
    collected_revenue: figures[1],
    achievement_pct: figures[2],
    commission_rate: figures[3],
    commission_amount: figures[4],
  });

  it('answers hand-computed figures for every BM and category with a target or collections, by bm_name then category', async () => {
    const res = await attainment('?month=3&year=2031');
    expect(res.status).toBe(200);
    expect(res.body).toEqual([
      // 1000/1000 = 100% exactly: the 100% tier, 1000 * 5.5% = 55.00
      row(ana, A, ['1000.00', '1000.00', '100.00', '5.50', '55.00']),
      // 1999.99/2000 = 99.9995% shows as 100.00 but does not reach the 100% tier
      row(ana, B, ['2000.00', '1999.99', '100.00', '0.00', '0.00']),
      // no plan for C
      row(ana, C, ['500.00', '250.00', '50.00', '0.00', '0.00']),
      // target 0: no achievement, no commission; only March's 200 + 100 count
      row(bruno, A, ['0.00', '300.00', null, '0.00', '0.00']),
      // collections without a target
      row(bruno, B, [null, '50.00', null, '0.00', '0.00']),
      // a target without collections: 0% is below the first tier
      row(carla, A, ['1000.00', '0.00', '0.00', '0.00', '0.00']),
      // 80% exactly: the 80% tier, 800 * 3.25% = 26.00
      row(dora, A, ['1000.00', '800.00', '80.00', '3.25', '26.00']),
      // 1000/333.33 = 300.003..%: the 100% tier, 1000 * 10% = 100.00
      row(dora, B, ['333.33', '1000.00', '300.00', '10.00', '100.00']),
    ]);
  });

  it('answers only the caller’s reports for commissions:read, and nothing for a manager without reports', async () => {
    const scoped = await attainment('?month=3&year=2031', tokenWith(['commissions:read'], manager.id));
    expect(scoped.status).toBe(200);
    expect(scoped.body.map((r: any) => [r.bm_name, r.category])).toEqual([
      [ana.name, A],
      [ana.name, B],
      [ana.name, C],
      [bruno.name, A],
      [bruno.name, B],
    ]);
    expect(scoped.body[0]).toEqual(row(ana, A, ['1000.00', '1000.00', '100.00', '5.50', '55.00']));
    const nobody = await attainment('?month=3&year=2031', tokenWith(['commissions:read'], carla.id));
    expect([nobody.status, nobody.body]).toEqual([200, []]);
    // read-all wins over read
    const both = await attainment(
      '?month=3&year=2031',
      tokenWith(['commissions:read', 'commissions:read-all'], manager.id),
    );
    expect(both.body).toHaveLength(8);
  });

  it('needs commissions:read or commissions:read-all (403 before 422), and a token', async () => {
    const res = await attainment('?month=13', tokenWith(['analytics:sales']));
    expect([res.status, res.body.code]).toEqual([403, 'forbidden']);
    expect(res.body.detail).toBe('Requires one of the permissions commissions:read, commissions:read-all.');
    const anonymous = await attainment('?month=3&year=2031', '');
    expect(anonymous.status).toBe(401);
  });

  it('answers [] for a month without targets or collections', async () => {
    const res = await attainment('?month=7&year=2099');
    expect([res.status, res.body]).toEqual([200, []]);
  });

  it.each([
    ['month=0', 'month'],
    ['month=13', 'month'],
    ['month=-1', 'month'],
    ['month=1.5', 'month'],
    ['month=march', 'month'],
    ['month=', 'month'],
    ['year=2019', 'year'],
    ['year=0', 'year'],
    ['year=20x', 'year'],
    ['year=10000', 'year'],
  ])('refuses %s with 422 at ["query","%s"]', async (query, field) => {
    const res = await attainment(`?${query}`);
    expect(res.status).toBe(422);
    expect(res.body.detail).toEqual([
      { loc: ['query', field], msg: expect.any(String), type: expect.any(String) },
    ]);
  });

  it('reports a bad month and a bad year together, and accepts the boundaries', async () => {
    const res = await attainment('?month=13&year=2019');
    expect(res.body.detail.map((d: any) => [d.loc, d.type])).toEqual([
      [['query', 'month'], 'less_than_equal'],
      [['query', 'year'], 'greater_than_equal'],
    ]);
    for (const query of ['month=1&year=2020', 'month=12&year=2020', 'month=12&year=9999']) {
      expect((await attainment(`?${query}`)).status).toBe(200);
    }
  });

  it('defaults to the current UTC month and year', async () => {
    const now = new Date();
    const month = now.getUTCMonth() + 1;
    const year = now.getUTCFullYear();
    await postTarget(carla.id, `D-${tag}`, year, month, '10.00');
    const byDefault = await attainment('');
    const explicit = await attainment(`?month=${month}&year=${year}`);
    expect(byDefault.status).toBe(200);
    expect(byDefault.body).toEqual(explicit.body);
    expect(byDefault.body).toEqual(
      expect.arrayContaining([row(carla, `D-${tag}`, ['10.00', '0.00', '0.00', '0.00', '0.00'])]),
    );
    expect((await attainment(`?year=${year}`)).body).toEqual(explicit.body);
  });
});

describe('team attainment with 500 BMs', () => {
  let nc: NatsConnection;
  let manager: TestUser;
  let ids: string[];

  beforeAll(async () => {
    nc = await connect({ servers: system().env.NATS_URL });
    const tag = unique('bulk');
    manager = await createUser({ first_name: 'Bulk', last_name: `Manager ${tag}` });
    // Bulk users go straight into acl's table: creating 500 through the API would hash 500 passwords.
    const users = await aclDb<{ id: string }>(
      `INSERT INTO users (email, first_name, last_name, employee_number, manager_id)
       SELECT 'bm-' || $1 || '-' || i || '@example.com', 'Bulk', $1 || '-' || lpad(i::text, 3, '0'), 'B-' || $1 || '-' || i, $2
         FROM generate_series(1, 500) AS i
       RETURNING id`,
      [tag, manager.id],
    );
    ids = users.map((u) => u.id);
    await paymentDb(
      `INSERT INTO commission_targets (bm_id, category, month, year, target_amount)
       SELECT id, 'BULK', 1, 2040, 1000 FROM unnest($1::uuid[]) AS id`,
      [ids],
    );
    await paymentDb(
      `INSERT INTO collections (bm_id, category, amount, collected_at)
       SELECT id, 'BULK', 500, '2040-01-15T00:00:00Z' FROM unnest($1::uuid[]) AS id`,
      [ids],
    );
  }, 60_000);

  afterAll(async () => {
    await nc?.close();
  });

  /** Copies of the requests made on a subject while `work` runs (a plain subscriber sees them all). */
  async function spy<T>(subjects: string[], work: () => Promise<T>): Promise<[T, Record<string, number[]>]> {
    const seen: Record<string, number[]> = Object.fromEntries(subjects.map((s) => [s, []]));
    const subs: Subscription[] = subjects.map((subject) =>
      nc.subscribe(subject, {
        callback: (_err, msg) => {
          const packet = msg.json<{ data: { data: { ids?: string[] } } }>();
          seen[subject].push(packet.data.data.ids?.length ?? 0);
        },
      }),
    );
    await nc.flush();
    const result = await work();
    // The requests were published before `work` got its answer, so the server queued their
    // copies to this connection before the PONG of this round trip: they have all arrived.
    await nc.flush();
    subs.forEach((s) => s.unsubscribe());
    return [result, seen];
  }

  it('asks acl for the 500 profiles in exactly one acl.users.get-many request', async () => {
    const [res, seen] = await spy(['acl.users.get-many', 'acl.users.reports'], () =>
      attainment('?month=1&year=2040'),
    );
    expect(res.status).toBe(200);
    expect(res.body).toHaveLength(500);
    expect(seen).toEqual({ 'acl.users.get-many': [500], 'acl.users.reports': [] });
    expect(
      res.body.every((r: any) => r.bm_name?.startsWith('Bulk ') && r.bm_email && r.employee_number),
    ).toBe(true);
    expect(res.body[0]).toMatchObject({
      achievement_pct: '50.00',
      collected_revenue: '500.00',
      target_amount: '1000.00',
    });
    const names = res.body.map((r: any) => r.bm_name);
    expect([...names].sort()).toEqual(names);
  });

  it('scopes by one acl.users.reports request, whose profiles it uses, and no get-many', async () => {
    const [res, seen] = await spy(['acl.users.get-many', 'acl.users.reports'], () =>
      attainment('?month=1&year=2040', tokenWith(['commissions:read'], manager.id)),
    );
    expect(res.status).toBe(200);
    expect(res.body).toHaveLength(500);
    expect(seen['acl.users.get-many']).toEqual([]);
    expect(seen['acl.users.reports']).toHaveLength(1);
    expect(new Set(res.body.map((r: any) => r.bm_id))).toEqual(new Set(ids));
  });
});

describe('team attainment with 5,001 BMs (more than one acl.users.get-many may carry)', () => {
  let nc: NatsConnection;
  let ids: string[];

  beforeAll(async () => {
    nc = await connect({ servers: system().env.NATS_URL });
    const tag = unique('many');
    // Straight into acl's table, as above: 5,001 users through the API would hash 5,001 passwords.
    const users = await aclDb<{ id: string }>(
      `INSERT INTO users (email, first_name, last_name, employee_number)
       SELECT 'many-' || $1 || '-' || i || '@example.com', 'Many', $1 || '-' || lpad(i::text, 4, '0'), 'M-' || $1 || '-' || i
         FROM generate_series(1, 5001) AS i
       RETURNING id`,
      [tag],
    );
    ids = users.map((u) => u.id);
    await paymentDb(
      `INSERT INTO commission_targets (bm_id, category, month, year, target_amount)
       SELECT id, 'MANY', 2, 2041, 1000 FROM unnest($1::uuid[]) AS id`,
      [ids],
    );
  }, 120_000);

  afterAll(async () => {
    await nc?.close();
  });

  it('answers every row with its profile, asking acl in pages of ACL_USERS_MAX_IDS ids', async () => {
    const sizes: number[] = [];
    const sub = nc.subscribe(AclSubjects.usersGetMany, {
      callback: (_err, msg) => {
        sizes.push(msg.json<{ data: { data: { ids: string[] } } }>().data.data.ids.length);
      },
    });
    await nc.flush();
    const res = await attainment('?month=2&year=2041');
    expect(res.status).toBe(200);
    expect(res.body).toHaveLength(5001);
    expect(res.body.every((r: any) => r.bm_name?.startsWith('Many ') && r.bm_email)).toBe(true);
    expect(new Set(res.body.map((r: any) => r.bm_id))).toEqual(new Set(ids));
    // The requests were published before the answer was sent; a flush orders them before it here.
    await nc.flush();
    sub.unsubscribe();
    expect(sizes).toHaveLength(Math.ceil(5001 / ACL_USERS_MAX_IDS));
    expect(sizes.every((n) => n <= ACL_USERS_MAX_IDS)).toBe(true);
    expect(sizes.reduce((a, b) => a + b, 0)).toBe(5001);
  }, 60_000);
});
