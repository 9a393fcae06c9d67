/**
 * The database limits every app gets from its configuration: pool size, how long a pooled
 * connection may stay idle, statement timeout and idle-in-transaction timeout, applied to every
 * session of the app's pool.
 */
import { eventually } from '@media/testing';
import { DataSource } from 'typeorm';
import { bootFixture, type BootedFixture } from './fixture/boot';

let fixture: BootedFixture;
let dataSource: DataSource;

beforeAll(async () => {
  fixture = await bootFixture({
    DB_POOL_MAX: '3',
    DB_POOL_IDLE_TIMEOUT: '1s',
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

/** The pg pool under the app's data source. */
const pool = () =>
  (dataSource.driver as unknown as { master: { options: { max: number }; totalCount: number } }).master;

it('sizes the pool by DB_POOL_MAX', () => {
  expect(pool().options.max).toBe(3);
});

it('closes the connections left idle for DB_POOL_IDLE_TIMEOUT', async () => {
  // Three statements at once open the pool's three connections; the app's background jobs then
  // keep at most two of them busy, and an idle one is closed after 1 s.
  await Promise.all([1, 2, 3].map(() => dataSource.query(`SELECT pg_sleep(0.2)`)));
  expect(pool().totalCount).toBe(3);
  await eventually(
    async () => pool().totalCount,
    (open) => open < 3,
    { timeoutMs: 10_000, orThrow: 'a connection of the pool closed once idle' },
  );
});
