/**
 * The database limits every app gets from its configuration: pool size, how long a pooled
 * connection may stay idle, statement timeout and idle-in-transaction timeout, applied to every
 * session of the app's pool, and JIT compilation turned off.
 */
import type { EventEmitter } from 'node:events';
import { once } from 'node:events';
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

it('turns JIT compilation off on the sessions of the pool', async () => {
  expect(await dataSource.query(`SHOW jit`)).toEqual([{ jit: 'off' }]);
});

it('cancels a statement running past DB_STATEMENT_TIMEOUT, and lets one just under it finish', async () => {
  await expect(dataSource.query(`SELECT pg_sleep(0.1)`)).resolves.toBeDefined();
  await expect(dataSource.query(`SELECT pg_sleep(1)`)).rejects.toThrow(/statement timeout/);
});

/** The pg pool under the app's data source. */
const pool = () =>
  (
    dataSource.driver as unknown as {
      master: EventEmitter & { options: { max: number; idleTimeoutMillis: number }; totalCount: number };
    }
  ).master;

it('sizes the pool by DB_POOL_MAX', () => {
  expect(pool().options.max).toBe(3);
});

it('closes a connection left idle for DB_POOL_IDLE_TIMEOUT', async () => {
  expect(pool().options.idleTimeoutMillis).toBe(1_000);
  // The pool's three connections opened by three statements at once, each given back when done;
  // the app's background jobs reuse the ones given back last, so the one left idle is closed 1 s
  // after (well before pg's own 10 s default). Not three connections held together: a job holding
  // its advisory lock's connection while its pass waits for another would wait on the test, and
  // the test on it, until the pool's 5 s connection timeout (a CI run failed so).
  const removed = once(pool(), 'remove', { signal: AbortSignal.timeout(5_000) });
  await Promise.all([1, 2, 3].map(() => dataSource.query('SELECT pg_sleep(0.05)')));
  expect(pool().totalCount).toBe(3);
  await expect(removed).resolves.toBeDefined();
});
