/**
 * The database limits every app gets from its configuration: pool size, statement timeout and
 * idle-in-transaction timeout, applied to every session of the app's pool.
 */
import { DataSource } from 'typeorm';
import { bootFixture, type BootedFixture } from './fixture/boot';

let fixture: BootedFixture;
let dataSource: DataSource;

beforeAll(async () => {
  fixture = await bootFixture({
    DB_POOL_MAX: '3',
    DB_STATEMENT_TIMEOUT: '300ms',
    DB_IDLE_IN_TRANSACTION_TIMEOUT: '2s',
  });
  dataSource = fixture.app.get(DataSource);
});

afterAll(async () => {
  await fixture?.stop();
});

it('sets statement_timeout and idle_in_transaction_session_timeout on the sessions of the pool', async () => {
  expect(await dataSource.query(`SHOW statement_timeout`)).toEqual([{ statement_timeout: '300ms' }]);
  expect(await dataSource.query(`SHOW idle_in_transaction_session_timeout`)).toEqual([
    { idle_in_transaction_session_timeout: '2s' },
  ]);
});

it('cancels a statement running past DB_STATEMENT_TIMEOUT, and lets one just under it finish', async () => {
  await expect(dataSource.query(`SELECT pg_sleep(0.1)`)).resolves.toBeDefined();
  await expect(dataSource.query(`SELECT pg_sleep(1)`)).rejects.toThrow(/statement timeout/);
});

it('sizes the pool by DB_POOL_MAX', () => {
  const pool = (dataSource.driver as unknown as { master: { options: { max: number } } }).master;
  expect(pool.options.max).toBe(3);
});
