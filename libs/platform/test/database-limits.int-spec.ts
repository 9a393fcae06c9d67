/**
 * The database limits every app gets from its configuration: pool size, how long a pooled
 * connection may stay idle, statement timeout and idle-in-transaction timeout, applied to every
 * session of the app's pool, and JIT compilation turned off.
 */
import type { EventEmitter } from 'node:events';
import { once } from 'node:events';
import { DataSource } from 'typeorm';
import { queryDatabase } from '@media/testing';
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
  // The server's own default is on (a session of its own, not the app's).
  expect(await queryDatabase(fixture.db, `SHOW jit`)).toEqual([{ jit: 'on' }]);
  expect(await dataSource.query(`SHOW jit`)).toEqual([{ jit: 'off' }]);
});

it('cancels a statement running past DB_STATEMENT_TIMEOUT, and lets one just under it finish', async () => {
  await expect(dataSource.query(`SELECT pg_sleep(0.1)`)).resolves.toBeDefined();
  await expect(dataSource.query(`SELECT pg_sleep(1)`)).rejects.toThrow(/statement timeout/);
});

/** The pg pool under a data source (the app's by default). */
const pool = (source = dataSource) =>
  (
    source.driver as unknown as {
      master: EventEmitter & { options: { max: number; idleTimeoutMillis: number }; totalCount: number };
    }
  ).master;

it('sizes the pool by DB_POOL_MAX', () => {
  expect(pool().options.max).toBe(3);
});

it('closes a connection left idle for DB_POOL_IDLE_TIMEOUT', async () => {
  expect(pool().options.idleTimeoutMillis).toBe(1_000);
  // A pool of the app's own options with nothing else on it. Beside the app's background jobs,
  // which take the connections given back last, a loaded machine kept all three busy for the 5 s
  // the test waits (a CI run failed so).
  const alone = await new DataSource(dataSource.options).initialize();
  try {
    const removed = once(pool(alone), 'remove', { signal: AbortSignal.timeout(5_000) });
    await Promise.all([1, 2, 3].map(() => alone.query('SELECT pg_sleep(0.05)')));
    expect(pool(alone).totalCount).toBe(3);
    // The first closed 1 s after it was given back (well before pg's own 10 s default).
    await expect(removed).resolves.toBeDefined();
  } finally {
    await alone.destroy();
  }
});
