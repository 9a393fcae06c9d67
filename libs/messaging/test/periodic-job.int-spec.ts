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

  it('runs as many passes at once as the pool has connections but one', async () => {
    const wide = await dataSourceOf(3);
    try {
      const gate = opened();
      const started = [opened(), opened(), opened()];
      const jobs = started.map(
        (start, i) =>
          new PeriodicJob({
            name: `wide-${i}`,
            every: 60_000,
            exclusive: { dataSource: wide, lock: `test:wide:${i}` },
            run: async () => {
              start.open();
              await gate.done;
              return i;
            },
          }),
      );
      const passes = jobs.map((j) => j.runOnce());
      // Two hold their locks together (a limit of one would never start the second); the third
      // waits for a turn.
      await Promise.all([started[0].done, started[1].done]);
      expect(started[2].isOpen()).toBe(false);
      gate.open();
      await expect(Promise.all(passes)).resolves.toEqual([0, 1, 2]);
    } finally {
      await wide.destroy();
    }
  });

  it('drops a pass that was waiting for its turn when its job stops', async () => {
    const [started, finished] = [opened(), opened()];
    const run = jest.fn(async () => 'ran');
    const holding = new PeriodicJob({
      name: 'holding',
      every: 60_000,
      exclusive: { dataSource, lock: 'test:turn:holding' },
      run: async () => {
        started.open();
        await finished.done;
        return 'held';
      },
    });
    const waiting = new PeriodicJob({
      name: 'waiting',
      every: 60_000,
      exclusive: { dataSource, lock: 'test:turn:waiting' },
      run,
    });
    // A pool of two: one turn, the holding pass's.
    const held = holding.runOnce();
    await started.done;
    const dropped = waiting.runOnce();
    // Once the promise callbacks have run, the pass waits for its turn, holding no connection.
    await new Promise((resolve) => setImmediate(resolve));
    const stopped = waiting.stop();
    finished.open();
    await expect(held).resolves.toBe('held');
    await expect(dropped).resolves.toBeUndefined();
    await stopped;
    expect(run).not.toHaveBeenCalled();
  });

  it('skips the pass of a second replica while the first holds the lock, and runs it after', async () => {
    const [started, finished] = [opened(), opened()];
    const first = new PeriodicJob({
      name: 'first',
      every: 60_000,
      exclusive: { dataSource, lock: 'test:replicas' },
      run: async () => {
        started.open();
        await finished.done;
        return 'first';
      },
    });
    const second = job(replica, 'test:replicas', 'second');
    const running = first.runOnce();
    await started.done;
    await expect(second.runOnce()).resolves.toBeUndefined();
    finished.open();
    await expect(running).resolves.toBe('first');
    await expect(second.runOnce()).resolves.toBe('second');
  });
});

/** A promise (`done`) resolved by `open()`. */
function opened(): { done: Promise<void>; open: () => void; isOpen: () => boolean } {
  let resolve!: () => void;
  let isOpen = false;
  const done = new Promise<void>((r) => (resolve = r));
  return {
    done,
    open: () => {
      isOpen = true;
      resolve();
    },
    isOpen: () => isOpen,
  };
}
