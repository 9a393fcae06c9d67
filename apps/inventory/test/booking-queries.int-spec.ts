/**
 * Getting a booking reads it, its lines and their assets in a fixed number of queries whatever
 * the number of lines (no N+1): inventory booted in-process on a fresh database, every SQL
 * statement it sends counted through its DataSource's logger.
 */
import { randomUUID } from 'node:crypto';
import type { INestApplication } from '@nestjs/common';
import { createApp } from '@media/platform';
import {
  call,
  createDatabases,
  databaseUrl,
  dropDatabases,
  freePort,
  generateTestKeys,
  mintToken,
  startJwks,
  type TestKeys,
} from '@media/testing';
import { DataSource } from 'typeorm';
import { inventoryApp } from '../src/app.definition';

let app: INestApplication;
let jwks: { url: string; close: () => void };
let keys: TestKeys;
let base: string;
const db = `e2e_${Date.now()}_${randomUUID().slice(0, 6)}_inventory_queries`;
const statements: string[] = [];

beforeAll(async () => {
  keys = generateTestKeys();
  jwks = await startJwks(keys);
  await createDatabases([db]);
  const port = await freePort();
  app = await createApp(
    inventoryApp,
    {
      PORT: String(port),
      DATABASE_URL: databaseUrl(db),
      // The in-process bus: no other run's events (replayed from a shared JetStream) add statements to the count.
      NATS_URL: 'inproc',
      CURSOR_SECRET: 'q'.repeat(48),
      JWT_JWKS_URL: jwks.url,
      LOG_LEVEL: 'silent',
    },
    { host: '127.0.0.1' },
  );
  base = `http://127.0.0.1:${port}/inventory`;
  const dataSource = app.get(DataSource);
  const logQuery = dataSource.logger.logQuery.bind(dataSource.logger);
  dataSource.logger.logQuery = (query, parameters, runner) => {
    statements.push(query);
    logQuery(query, parameters, runner);
  };
});

afterAll(async () => {
  await app?.close();
  jwks?.close();
  await dropDatabases([db]);
});

const token = () => mintToken(keys, { permissions: ['bookings:read', 'bookings:write'] });

const line = (i: number) => ({
  platform: ['TV', 'RADIO', 'DIGITAL'][i % 3],
  category: `C${i % 7}`,
  channel: 'Ch',
  start_date: '2026-01-01',
  end_date: '2026-01-31',
  spots: 1,
  rate_card_amount: '1.01',
  booked_amount: '1.00',
});

/** A booking of `n` lines, each with two assets; returns the SQL statements of one GET of it. */
async function statementsOfGet(n: number): Promise<{ sql: string[]; body: any }> {
  const created = await call(base, '/api/v1/bookings', {
    token: token(),
    json: { reference: randomUUID(), client_name: 'Q', lines: Array.from({ length: n }, (_, i) => line(i)) },
  });
  expect(created.status).toBe(201);
  // One asset through the API, the rest written directly (hundreds of requests would only be slow).
  if (n > 0) {
    const asset = await call(
      base,
      `/api/v1/bookings/${created.body.id}/lines/${created.body.lines[0].id}/assets`,
      {
        token: token(),
        json: { name: 'a' },
      },
    );
    expect(asset.status).toBe(201);
    await app.get(DataSource).query(
      `INSERT INTO line_assets (line_id, name)
       SELECT l.id, 'b' FROM booking_lines l WHERE l.order_id = $1
       UNION ALL
       SELECT l.id, 'a' FROM booking_lines l WHERE l.order_id = $1 AND l.id <> $2`,
      [created.body.id, created.body.lines[0].id],
    );
  }
  statements.length = 0;
  const res = await call(base, `/api/v1/bookings/${created.body.id}`, { token: token() });
  expect(res.status).toBe(200);
  // Only this app's own tables (the outbox relay may poll meanwhile).
  return { sql: statements.filter((s) => /bookings|booking_lines|line_assets/.test(s)), body: res.body };
}

describe('GET /inventory/api/v1/bookings/{order_id}: query count', () => {
  it('reads 1 line and 200 lines with the same three queries', async () => {
    const one = await statementsOfGet(1);
    const many = await statementsOfGet(200);
    expect(one.sql).toHaveLength(3);
    expect(many.sql).toHaveLength(3);
    expect(many.body.lines).toHaveLength(200);
    expect(many.body.lines.every((l: { assets: unknown[] }) => l.assets.length === 2)).toBe(true);
    expect(many.body.totals).toEqual({ rate_card_amount: '202.00', booked_amount: '200.00' });
  });

  it('reads a booking without lines in two', async () => {
    expect((await statementsOfGet(0)).sql).toHaveLength(2);
  });
});
