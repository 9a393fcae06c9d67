/**
 * New-user growth (docs/api/contract.md §4) per day, week and month, zero-filled, with leap
 * days, partial buckets and the running total since the beginning.
 */
import { randomUUID } from 'node:crypto';
import { acl, aclDb, admin, createUser, PASSWORD, tokenWith, uniqueEmail } from './support';

const growth = (query: string, token = tokenWith(['analytics:growth'])) =>
  acl(`/api/v1/analytics/growth${query}`, { token });

/** Everyone who joined before `iso`, whoever created them (the running total starts there). */
async function joinedBefore(iso: string): Promise<number> {
  const rows = await aclDb<{ n: number }>(`SELECT count(*)::int AS n FROM users WHERE date_joined < $1`, [
    iso,
  ]);
  return rows[0].n;
}

const SEEDS = [
  '2023-12-31T23:59:59.999Z',
  '2024-01-01T00:00:00.000Z',
  '2024-02-28T12:00:00.000Z',
  '2024-02-29T00:00:00.000Z',
  '2024-02-29T00:00:00.000Z',
  '2024-02-29T23:59:59.999Z',
  '2024-03-01T00:00:00.000Z',
  '2024-03-03T23:00:00.000Z', // a Sunday
  '2024-03-04T10:00:00.000Z', // the next Monday
];

beforeAll(async () => {
  const users = [];
  for (const date_joined of SEEDS) users.push(await createUser({ date_joined }));
  // Users of every status count: one of the leap-day users is disabled.
  await acl(`/api/v1/users/${users[4].id}`, {
    method: 'PATCH',
    token: await admin(),
    json: { status: 'DISABLED' },
  });
});

describe('GET /acl/api/v1/analytics/growth', () => {
  it('counts per day across the leap day, zero-filled', async () => {
    const base = await joinedBefore('2024-02-27T00:00:00Z');
    const res = await growth('?interval=day&date_from=2024-02-27&date_to=2024-03-02');
    expect(res.status).toBe(200);
    expect(res.body).toEqual({
      interval: 'day',
      date_from: '2024-02-27',
      date_to: '2024-03-02',
      total_new_users: 5,
      series: [
        { period_start: '2024-02-27', new_users: 0, cumulative_users: base },
        { period_start: '2024-02-28', new_users: 1, cumulative_users: base + 1 },
        { period_start: '2024-02-29', new_users: 3, cumulative_users: base + 4 },
        { period_start: '2024-03-01', new_users: 1, cumulative_users: base + 5 },
        { period_start: '2024-03-02', new_users: 0, cumulative_users: base + 5 },
      ],
    });
  });

  it('starts weeks on Monday and counts only users inside the range, cumulative to the end of each bucket', async () => {
    const base = await joinedBefore('2024-02-26T00:00:00Z');
    const res = await growth('?interval=week&date_from=2024-02-29&date_to=2024-03-04');
    expect(res.status).toBe(200);
    expect(res.body.series).toEqual([
      // 02-28 is in the bucket but before date_from: not new, yet part of the running total.
      { period_start: '2024-02-26', new_users: 5, cumulative_users: base + 6 },
      { period_start: '2024-03-04', new_users: 1, cumulative_users: base + 7 },
    ]);
    expect(res.body.total_new_users).toBe(6);
  });

  it('buckets months from date_trunc of date_from, counting only [date_from, date_to]', async () => {
    const base = await joinedBefore('2023-12-01T00:00:00Z');
    const res = await growth('?interval=month&date_from=2023-12-15&date_to=2024-03-01');
    expect(res.status).toBe(200);
    expect(res.body).toEqual({
      interval: 'month',
      date_from: '2023-12-15',
      date_to: '2024-03-01',
      total_new_users: 7,
      series: [
        { period_start: '2023-12-01', new_users: 1, cumulative_users: base + 1 },
        { period_start: '2024-01-01', new_users: 1, cumulative_users: base + 2 },
        { period_start: '2024-02-01', new_users: 4, cumulative_users: base + 6 },
        // date_to is March 1st: the March 3rd and 4th joiners are not new here, but the bucket ends on April 1st.
        { period_start: '2024-03-01', new_users: 1, cumulative_users: base + 9 },
      ],
    });
  });

  it('treats date_to as a whole day and the boundaries at midnight UTC', async () => {
    const res = await growth('?interval=day&date_from=2023-12-31&date_to=2024-01-01');
    expect(res.body.series.map((p: { new_users: number }) => p.new_users)).toEqual([1, 1]);
  });

  it('answers one bucket for a one-day range on the leap day', async () => {
    const res = await growth('?interval=day&date_from=2024-02-29&date_to=2024-02-29');
    expect(res.status).toBe(200);
    expect(res.body.series).toEqual([
      {
        period_start: '2024-02-29',
        new_users: 3,
        cumulative_users: (await joinedBefore('2024-03-01T00:00:00Z')) - 0,
      },
    ]);
  });

  it('fills an empty range with zeros, keeping the running total of earlier users', async () => {
    const base = await joinedBefore('2022-01-01T00:00:00Z');
    for (const [interval, points] of [
      ['day', 31],
      ['week', 6],
      ['month', 1],
    ] as const) {
      const res = await growth(`?interval=${interval}&date_from=2022-01-01&date_to=2022-01-31`);
      expect(res.status).toBe(200);
      expect(res.body.total_new_users).toBe(0);
      expect(res.body.series).toHaveLength(points);
      for (const point of res.body.series) expect(point.new_users).toBe(0);
      // The first week starts on Monday 2021-12-27.
      if (interval !== 'week') for (const point of res.body.series) expect(point.cumulative_users).toBe(base);
    }
  });

  it('counts the leap-day month and week in one bucket each', async () => {
    const month = await growth('?interval=month&date_from=2024-02-01&date_to=2024-02-29');
    expect(month.body.series).toEqual([
      {
        period_start: '2024-02-01',
        new_users: 4,
        cumulative_users: await joinedBefore('2024-03-01T00:00:00Z'),
      },
    ]);
  });

  it('defaults to months from the first day of the month eleven months ago to today', async () => {
    const res = await growth('');
    expect(res.status).toBe(200);
    const now = new Date();
    const from = new Date(Date.UTC(now.getUTCFullYear(), now.getUTCMonth() - 11, 1))
      .toISOString()
      .slice(0, 10);
    expect(res.body).toMatchObject({
      interval: 'month',
      date_from: from,
      date_to: now.toISOString().slice(0, 10),
    });
    expect(res.body.series).toHaveLength(12);
    expect(res.body.series[0].period_start).toBe(from);
    const last = res.body.series[11];
    expect(last.cumulative_users).toBe(
      await joinedBefore(new Date(Date.UTC(now.getUTCFullYear(), now.getUTCMonth() + 1, 1)).toISOString()),
    );
  });

  it('accepts 366 daily points and refuses 367 with 422', async () => {
    expect((await growth('?interval=day&date_from=2024-01-01&date_to=2024-12-31')).status).toBe(200);
    const res = await growth('?interval=day&date_from=2024-01-01&date_to=2025-01-01');
    expect(res.status).toBe(422);
    expect(res.body.detail).toEqual([
      { loc: ['query', 'interval'], msg: expect.any(String), type: 'value_error' },
    ]);
    const months = await growth('?interval=month&date_from=1990-01-01&date_to=2024-01-01');
    expect(months.status).toBe(422);
  });

  it('refuses date_from after date_to with 422 at the bound the client gave', async () => {
    const both = await growth('?date_from=2024-03-01&date_to=2024-02-01');
    expect(both.status).toBe(422);
    expect(both.body.detail).toEqual([
      { loc: ['query', 'date_to'], msg: expect.any(String), type: 'value_error' },
    ]);
    const onlyFrom = await growth('?date_from=2999-01-01');
    expect(onlyFrom.status).toBe(422);
    expect(onlyFrom.body.detail).toEqual([
      { loc: ['query', 'date_from'], msg: expect.any(String), type: 'value_error' },
    ]);
  });

  it('refuses malformed dates, non-existent days and unknown intervals at their query loc', async () => {
    const res = await growth('?date_from=2023-02-29&date_to=24-01-01&interval=year');
    expect(res.status).toBe(422);
    expect(res.body.detail).toEqual([
      { loc: ['query', 'date_from'], msg: expect.any(String), type: 'date_parsing' },
      { loc: ['query', 'date_to'], msg: expect.any(String), type: 'date_parsing' },
      { loc: ['query', 'interval'], msg: expect.any(String), type: 'enum' },
    ]);
  });

  it('answers 403 without analytics:growth and 401 without a token', async () => {
    expect((await growth('', tokenWith(['analytics:sales']))).status).toBe(403);
    expect((await acl('/api/v1/analytics/growth')).status).toBe(401);
  });

  it('lets an ADMIN (permission *) read it', async () => {
    expect((await growth('?interval=week', await admin())).status).toBe(200);
  });
});

/**
 * The series reads user_join_days, a per-day rollup a trigger on users keeps in step. These tests
 * write users behind the API's back (straight SQL, as an import or a repair would) and check that
 * every change shows up, then race 20 creations through the API on one day. They use days in 1985,
 * which no other test touches.
 */
describe('growth series over the per-day rollup', () => {
  const days = (query: string) =>
    growth(query).then((res) => {
      expect(res.status).toBe(200);
      return res.body.series as { period_start: string; new_users: number; cumulative_users: number }[];
    });

  /** The rollup row by row against a count of users, over every day: no difference either way. */
  async function rollupDrift(): Promise<unknown[]> {
    return aclDb(`
      (SELECT day, users FROM user_join_days WHERE users <> 0
       EXCEPT SELECT (date_joined AT TIME ZONE 'UTC')::date, count(*)::int FROM users GROUP BY 1)
      UNION ALL
      (SELECT (date_joined AT TIME ZONE 'UTC')::date, count(*)::int FROM users GROUP BY 1
       EXCEPT SELECT day, users FROM user_join_days)`);
  }

  it('reflects users inserted, moved and deleted with SQL, and forgets a rolled-back insert', async () => {
    const range = '?interval=day&date_from=1985-06-01&date_to=1985-06-06';
    const inserted = await aclDb<{ id: string }>(
      `INSERT INTO users (email, first_name, last_name, status, date_joined)
       VALUES ($1, 'Sql', 'Early', 'INVITED', '1984-12-31T23:59:59.999Z'),
              ($2, 'Sql', 'Late', 'DISABLED', '1985-06-02T23:59:59.999Z'),
              ($3, 'Sql', 'Offset', 'INVITED', '1985-06-03T01:30:00+02:00'),
              ($4, 'Sql', 'Other', 'INVITED', '1985-06-04T12:00:00Z')
       RETURNING id`,
      [uniqueEmail('sql'), uniqueEmail('sql'), uniqueEmail('sql'), uniqueEmail('sql')],
    );
    const [early, late, offset, other] = inserted.map((row) => row.id);
    const base = await joinedBefore('1985-06-01T00:00:00Z');
    const news = async () => (await days(range)).map((p) => p.new_users);

    // 01:30 at +02:00 is 23:30 UTC the day before: both land on June 2nd.
    let series = await days(range);
    expect(series.map((p) => p.new_users)).toEqual([0, 2, 0, 1, 0, 0]);
    expect(series.map((p) => p.cumulative_users)).toEqual([
      base,
      base + 2,
      base + 2,
      base + 3,
      base + 3,
      base + 3,
    ]);

    // A move from one day to another takes one off the old day and adds it to the new one.
    await aclDb(`UPDATE users SET date_joined = '1985-06-05T08:00:00Z' WHERE id = $1`, [late]);
    expect(await news()).toEqual([0, 1, 0, 1, 1, 0]);
    // A move into the range from before it leaves the running total where it ends up.
    await aclDb(`UPDATE users SET date_joined = '1985-06-06T00:00:00Z' WHERE id = $1`, [early]);
    series = await days(range);
    expect(series.map((p) => p.new_users)).toEqual([0, 1, 0, 1, 1, 1]);
    expect(series[0].cumulative_users).toBe(base - 1);
    expect(series[5].cumulative_users).toBe(base + 3);
    // A change within the same UTC day, or of anything but date_joined, changes nothing.
    await aclDb(`UPDATE users SET date_joined = date_joined - interval '20 hours' WHERE id = $1`, [offset]);
    await aclDb(`UPDATE users SET status = 'DISABLED', first_name = 'Renamed' WHERE id = ANY($1::uuid[])`, [
      [offset, other],
    ]);
    expect(await news()).toEqual([0, 1, 0, 1, 1, 1]);

    // A hard delete takes the user off its day.
    await aclDb(`DELETE FROM users WHERE id = $1`, [other]);
    expect(await news()).toEqual([0, 1, 0, 0, 1, 1]);

    // An insert whose transaction rolls back leaves no count behind.
    await expect(
      aclDb(`DO $$ BEGIN
               INSERT INTO users (email, status, date_joined)
               VALUES ('rolled-back-${randomUUID().slice(0, 8)}@example.com', 'INVITED', '1985-06-01T12:00:00Z');
               RAISE EXCEPTION 'roll back';
             END $$`),
    ).rejects.toThrow('roll back');
    expect(await news()).toEqual([0, 1, 0, 0, 1, 1]);

    expect(await rollupDrift()).toEqual([]);
  });

  it('counts 20 users created in parallel through the API on one day exactly 20 times', async () => {
    const token = await admin();
    const created = await Promise.all(
      Array.from({ length: 20 }, (_, i) =>
        acl('/api/v1/users', {
          token,
          json: {
            email: uniqueEmail('parallel'),
            password: PASSWORD,
            first_name: 'Parallel',
            last_name: `User ${i}`,
            date_joined: `1985-07-10T${String(i).padStart(2, '0')}:15:00Z`,
          },
        }),
      ),
    );
    expect(created.map((res) => res.status)).toEqual(Array(20).fill(201));
    const series = await days('?interval=day&date_from=1985-07-09&date_to=1985-07-11');
    const base = await joinedBefore('1985-07-09T00:00:00Z');
    expect(series).toEqual([
      { period_start: '1985-07-09', new_users: 0, cumulative_users: base },
      { period_start: '1985-07-10', new_users: 20, cumulative_users: base + 20 },
      { period_start: '1985-07-11', new_users: 0, cumulative_users: base + 20 },
    ]);
    expect(await aclDb(`SELECT users FROM user_join_days WHERE day = '1985-07-10'`)).toEqual([{ users: 20 }]);
    expect(await rollupDrift()).toEqual([]);
  });
});
