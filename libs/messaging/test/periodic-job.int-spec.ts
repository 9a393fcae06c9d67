/**
 * PeriodicJob's `exclusive` passes on a real PostgreSQL: one replica at a time, and a pool that
 * their locks cannot use up.
 */
import { DataSource } from 'typeorm';
import { createDatabases, databaseUrl, dropDatabases } from '@media/testing';
import { PeriodicJob } from '../src';

const DB = `messaging_periodic_job_${process.pid}`;

/** A data source of `max` pooled connections that gives up waiting for one after 2 s. */
const dataSourceOf = (max: number) =>
  new DataSource({
    type: 'postgres',
    url: databaseUrl(DB),
    extra: { max, connectionTimeoutMillis: 2_000 },
  }).initialize();

beforeAll(async () => {
  await createDatabases([DB]);
});

afterAll(async () => {
  await dropDatabases([DB]);
});

describe('PeriodicJob with exclusive', () => {
  let dataSource: DataSource;
  let replica: DataSource;

  beforeAll(async () => {
    [dataSource, replica] = await Promise.all([dataSourceOf(2), dataSourceOf(2)]);
  });

  afterAll(async () => {
    await Promise.all([dataSource?.destroy(), replica?.destroy()]);
  });

  /** A job named `lock` whose pass takes a connection of the pool for its work, and answers `answer`. */
  const job = (source: DataSource, lock: string, answer: string, hold = 0.1) =>
    new PeriodicJob({
      name: lock,
      every: 60_000,
      exclusive: { dataSource: source, lock },
      run: async () => {
        await source.query('SELECT pg_sleep($1)', [hold]);
        return answer;
      },
    });

  it('runs every pass of more jobs than the pool has connections, each pass using the pool', async () => {
    // Two connections: three passes each holding its lock on one while asking for another for its
    // work would wait on each other until the connect timeout.
    const jobs = ['a', 'b', 'c'].map((name) => job(dataSource, `test:pool:${name}`, name));
    await expect(Promise.all(jobs.map((j) => j.runOnce()))).resolves.toEqual(['a', 'b', 'c']);
  });

  it('skips the pass of a second replica while the first holds the lock, and runs it after', async () => {
    let inPass!: () => void;
    let finish!: () => void;
    const started = new Promise<void>((resolve) => (inPass = resolve));
    const finished = new Promise<void>((resolve) => (finish = resolve));
    const first = new PeriodicJob({
      name: 'first',
      every: 60_000,
      exclusive: { dataSource, lock: 'test:replicas' },
      run: async () => {
        inPass();
        await finished;
        return 'first';
      },
    });
    const second = job(replica, 'test:replicas', 'second');
    const running = first.runOnce();
    await started;
    await expect(second.runOnce()).resolves.toBeUndefined();
    finish();
    await expect(running).resolves.toBe('first');
    await expect(second.runOnce()).resolves.toBe('second');
  });
});
