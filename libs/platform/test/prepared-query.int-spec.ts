/**
 * PreparedQuery: a hot read as a named statement of the pool, prepared once per connection (a
 * pool of one connection here, so the test sees the session that ran it), and an ordinary query
 * on the transaction's connection inside a transaction.
 */
import { DataSource } from 'typeorm';
import { createDatabases, databaseUrl, dropDatabases } from '@media/testing';
import { PreparedQuery } from '@media/kernel';

const database = `int_${Date.now()}_prepared`;
let dataSource: DataSource;

const BY_KEY = new PreparedQuery<{ id: number; label: string }>(
  'test.items.by-id',
  'SELECT id, label FROM prepared_items WHERE id = $1::int',
);

beforeAll(async () => {
  await createDatabases([database]);
  dataSource = await new DataSource({
    type: 'postgres',
    url: databaseUrl(database),
    extra: { max: 1 },
  }).initialize();
  await dataSource.query(`CREATE TABLE prepared_items (id int PRIMARY KEY, label text NOT NULL)`);
  await dataSource.query(
    `INSERT INTO prepared_items SELECT n, 'item ' || n FROM generate_series(1, 1000) AS n`,
  );
  await dataSource.query(`ANALYZE prepared_items`);
});

afterAll(async () => {
  await dataSource?.destroy();
  await dropDatabases([database]);
});

async function preparedOnTheConnection(): Promise<
  { name: string; generic_plans: number; custom_plans: number }[]
> {
  const rows: { name: string; generic_plans: string; custom_plans: string }[] = await dataSource.query(
    `SELECT name, generic_plans, custom_plans FROM pg_prepared_statements`,
  );
  return rows.map((r) => ({
    ...r,
    generic_plans: Number(r.generic_plans),
    custom_plans: Number(r.custom_plans),
  }));
}

it('answers what the same SQL answers as a plain query', async () => {
  const rows = await BY_KEY.run(dataSource, [42]);
  expect(rows).toEqual([{ id: 42, label: 'item 42' }]);
  expect(rows).toEqual(await dataSource.query(BY_KEY.text, [42]));
  expect(await BY_KEY.run(dataSource, [5000])).toEqual([]);
});

it('is prepared once on the connection, and a lookup by key stops being planned after five runs', async () => {
  for (let id = 1; id <= 10; id++) expect(await BY_KEY.run(dataSource, [id])).toHaveLength(1);
  const [statement, ...others] = (await preparedOnTheConnection()).filter((s) => s.name === BY_KEY.name);
  expect(others).toEqual([]);
  // PostgreSQL plans the first five runs for their values, then keeps the generic plan.
  expect(statement.custom_plans).toBe(5);
  expect(statement.generic_plans).toBeGreaterThanOrEqual(5);
});

it('runs inside a transaction on the transaction’s connection, seeing its uncommitted rows', async () => {
  await expect(
    dataSource.transaction(async (manager) => {
      await manager.query(`INSERT INTO prepared_items (id, label) VALUES (2001, 'uncommitted')`);
      expect(await BY_KEY.run(dataSource, [2001], manager)).toEqual([{ id: 2001, label: 'uncommitted' }]);
      throw new Error('roll back');
    }),
  ).rejects.toThrow('roll back');
  expect(await BY_KEY.run(dataSource, [2001])).toEqual([]);
});

it('answers on once a migration changes its result type under it, as an ordinary query', async () => {
  for (let id = 1; id <= 6; id++) await BY_KEY.run(dataSource, [id]);
  // Prepared on the pool's one connection; PostgreSQL now refuses the prepared statement there
  // ("cached plan must not change result type").
  await dataSource.query(`ALTER TABLE prepared_items ALTER COLUMN label TYPE varchar(40)`);
  try {
    expect(await BY_KEY.run(dataSource, [7])).toEqual([{ id: 7, label: 'item 7' }]);
    expect(await BY_KEY.run(dataSource, [8])).toEqual([{ id: 8, label: 'item 8' }]);
  } finally {
    await dataSource.query(`ALTER TABLE prepared_items ALTER COLUMN label TYPE text`);
  }
});
