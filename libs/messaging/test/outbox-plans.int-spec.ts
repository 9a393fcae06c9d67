/**
 * The outbox relay's claim on a real PostgreSQL: its plan reads the pending rows through
 * `outbox_pending_idx` walked in order, whatever PostgreSQL's estimates, because a bitmap scan
 * would visit every published row's pending version again at every pass until vacuum.
 */
import { Client } from 'pg';
import { DataSource } from 'typeorm';
import { INDEX_SCANS_ONLY } from '@media/kernel';
import {
  analyzedPlan,
  createDatabases,
  databaseUrl,
  dropDatabases,
  plannedJit,
  readsOf,
} from '@media/testing';
import { CreateDeadLetters1700000000900, CreateOutbox1700000000000 } from '../src';
import { CLAIM_PENDING } from '../src/outbox/outbox';

const DB = `messaging_outbox_plans_${process.pid}`;

let db: Client;

beforeAll(async () => {
  await createDatabases([DB]);
  const migrated = await new DataSource({
    type: 'postgres',
    url: databaseUrl(DB),
    migrations: [CreateOutbox1700000000000, CreateDeadLetters1700000000900],
  }).initialize();
  await migrated.runMigrations();
  await migrated.destroy();
  db = new Client({ connectionString: databaseUrl(DB) });
  await db.connect();
});

afterAll(async () => {
  await db?.end();
  await dropDatabases([DB]);
});

it('claims the oldest pending rows through the pending index walked in order, whatever the estimates', async () => {
  // In a transaction rolled back: 3,000 events written and 2,900 of them published, and random
  // reads priced at ten times the default, so that the estimates favour another plan.
  await db.query('BEGIN');
  try {
    await db.query(
      `INSERT INTO outbox (subject, payload, created_at)
       SELECT 'thing.happened', '{}', now() - interval '1 hour' + g * interval '1 ms'
         FROM generate_series(1, 3000) AS g`,
    );
    await db.query(
      `UPDATE outbox SET published_at = now()
        WHERE id IN (SELECT id FROM outbox ORDER BY created_at LIMIT 2900)`,
    );
    await db.query('ANALYZE outbox');
    await db.query(`SET LOCAL random_page_cost = 40`);
    await db.query('SAVEPOINT unpinned'); // the claim's leases undone after
    const unpinned = await analyzedPlan(db, CLAIM_PENDING, [100, 30]);
    expect(readsOf(unpinned, 'outbox').join(', ')).not.toContain('Index Scan using outbox_pending_idx');
    await db.query('ROLLBACK TO SAVEPOINT unpinned');

    await db.query(`SELECT ${INDEX_SCANS_ONLY}`);
    const claim = await analyzedPlan(db, CLAIM_PENDING, [100, 30]);
    expect(readsOf(claim, 'outbox')).toEqual([
      'ModifyTable',
      'Index Scan using outbox_pending_idx',
      'Index Scan using outbox_pkey where (id = "ANY_subquery".id)',
    ]);
    expect(claim['Actual Rows']).toBe(100);
  } finally {
    await db.query('ROLLBACK');
  }
});

it('does not compile a statement that must still scan a table whole, priced high by the settings (JIT)', async () => {
  // No index of outbox serves a filter on its subject: with sequential scans off, the one plan
  // left is priced at 10^10 (PostgreSQL 15 to 17), far over jit_above_cost, and PostgreSQL would
  // compile it every time.
  const jitOf = async (settings: string) => {
    await db.query('BEGIN');
    try {
      await db.query(`SELECT ${settings}`);
      return await plannedJit(db, `SELECT id FROM outbox WHERE subject = 'thing.happened'`);
    } finally {
      await db.query('ROLLBACK');
    }
  };
  expect(
    await jitOf(`set_config('enable_seqscan', 'off', true), set_config('jit', 'on', true)`),
  ).toMatchObject({
    Functions: expect.any(Number),
  });
  expect(await jitOf(INDEX_SCANS_ONLY)).toBeUndefined();
});
