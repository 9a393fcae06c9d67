/**
 * The platform's metrics on the fixture app: a request counted under its route
 * template with its NATS hop timed per subject, the database pool's waiters, and
 * METRICS_ENABLED=false turning both off.
 */
import { getDataSourceToken } from '@nestjs/typeorm';
import type { DataSource } from 'typeorm';
import { call, eventually, mintToken, queryDatabase } from '@media/testing';
import { bootFixture, type BootedFixture } from './fixture/boot';

function sample(text: string, name: string, labels: Record<string, string>): number | undefined {
  const line = text
    .split('\n')
    .find(
      (l) => l.startsWith(`${name}{`) && Object.entries(labels).every(([k, v]) => l.includes(`${k}="${v}"`)),
    );
  return line === undefined ? undefined : Number(line.slice(line.lastIndexOf(' ') + 1));
}

describe('metrics on (default)', () => {
  let fixture: BootedFixture;
  beforeAll(async () => {
    fixture = await bootFixture();
  });
  afterAll(() => fixture?.stop());

  it('counts requests per route template and NATS requests per subject, client and responder side', async () => {
    const token = mintToken(fixture.keys, {});
    expect((await call(fixture.base, '/api/v1/echo/first', { token })).status).toBe(200);
    expect((await call(fixture.base, '/api/v1/echo/second', { token })).status).toBe(200);
    const text = (await call(fixture.base, '/metrics')).text;
    const route = '/fixture/api/v1/echo/:word';
    expect(sample(text, 'http_requests_total', { app: 'fixture-platform', route, status: '200' })).toBe(2);
    expect(
      sample(text, 'nats_client_request_duration_seconds_count', { subject: 'fixture.echo', outcome: 'ok' }),
    ).toBe(2);
    expect(
      sample(text, 'nats_server_request_duration_seconds_count', { subject: 'fixture.echo', outcome: 'ok' }),
    ).toBe(2);
  });
});

/** How long a scrape may take to find the pool without waiters (see the test). */
const IDLE_WITHIN_MS = 30_000;

describe('db_pool_waiting', () => {
  let fixture: BootedFixture;
  beforeAll(async () => {
    fixture = await bootFixture({ DB_POOL_MAX: '2' });
  });
  afterAll(() => fixture?.stop());

  const waiting = async () => sample((await call(fixture.base, '/metrics')).text, 'db_pool_waiting', {});
  const sleepers = async () =>
    (
      await queryDatabase<{ n: number }>(
        fixture.db,
        `SELECT count(*)::int AS n FROM pg_stat_activity
          WHERE datname = current_database() AND query = 'SELECT pg_sleep(20)' AND state = 'active'`,
      )
    )[0].n;

  it('reads 0 with the pool idle and counts the queries waiting while every connection is held', async () => {
    // The app's background passes (the audit sealer's, every 250 ms) take a connection for a
    // moment: a scrape may meet one of them, so "idle" is a scrape that met none. With two
    // connections on a loaded machine (a CI run at load 23) those passes kept three queued for
    // more than 5 s on end, hence the longer wait.
    expect(await eventually(waiting, (n) => n === 0, IDLE_WITHIN_MS)).toBe(0);
    const dataSource = fixture.app.get<DataSource>(getDataSourceToken());
    // Both connections held by sleepers (cancelled below), then three queries queue behind them.
    const held = [1, 2].map(() => dataSource.query('SELECT pg_sleep(20)').catch(() => 'cancelled'));
    expect(await eventually(sleepers, (n) => n === 2)).toBe(2);
    const queued = [1, 2, 3].map(() =>
      dataSource.query('SELECT 1 AS one').then(
        () => 'answered',
        (error: Error) => error.message,
      ),
    );
    // The scrape's own outbox query queues behind the sleepers too: it gives up at the pool's
    // connect timeout (5 s), and the scrape answers with what the pool gauges read when it began.
    // The app's background work (the outbox relay's poll) may be queued as well, hence "at least".
    expect(await waiting()).toBeGreaterThanOrEqual(3);
    expect(await Promise.all(queued)).toEqual(Array(3).fill('timeout exceeded when trying to connect'));

    await queryDatabase(
      fixture.db,
      `SELECT pg_cancel_backend(pid) FROM pg_stat_activity
        WHERE datname = current_database() AND query = 'SELECT pg_sleep(20)'`,
    );
    expect(await Promise.all(held)).toEqual(['cancelled', 'cancelled']);
    expect(await eventually(waiting, (n) => n === 0, IDLE_WITHIN_MS)).toBe(0);
  }, 90_000);
});

describe('METRICS_ENABLED=false', () => {
  let fixture: BootedFixture;
  beforeAll(async () => {
    fixture = await bootFixture({ METRICS_ENABLED: 'false' });
  });
  afterAll(() => fixture?.stop());

  it('serves no /metrics', async () => {
    const res = await call(fixture.base, '/metrics');
    expect(res.status).toBe(404);
  });
});
