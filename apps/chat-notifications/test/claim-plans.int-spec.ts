/**
 * The webhook worker's claim on a real PostgreSQL: its plan reads the due messages through
 * `webhook_messages_due_idx` walked in order, whatever PostgreSQL's estimates (INDEX_SCANS_ONLY),
 * because each delivered message leaves two old versions in that index until vacuum; and with
 * sequential scans so priced, the statement is still not compiled by JIT (its read of the
 * endpoints, whole, has no index to take).
 */
import { Client } from 'pg';
import { INDEX_SCANS_ONLY } from '@media/kernel';
import { migrateDatabase } from '@media/platform';
import { analyzedPlan, createDatabases, databaseUrl, dropDatabases, readsOf } from '@media/testing';
import { chatNotificationsApp } from '../src/app.definition';
import {
  CLAIM_DUE,
  ENDPOINT_CONCURRENCY,
  FAILING_ENDPOINT_CONCURRENCY,
} from '../src/webhooks/webhooks.worker';

const DB = `chat_webhooks_plans_${process.pid}`;
/** An idle replica's round: its owner, a lease of a minute, all of its room free. */
const ROUND = [
  '00000000-0000-4000-8000-000000000000',
  60_000,
  ENDPOINT_CONCURRENCY,
  1024,
  FAILING_ENDPOINT_CONCURRENCY,
];

let db: Client;

beforeAll(async () => {
  await createDatabases([DB]);
  await migrateDatabase(
    'chat-notifications',
    { url: databaseUrl(DB) },
    { entities: [], migrations: chatNotificationsApp.database.migrations },
  );
  db = new Client({ connectionString: databaseUrl(DB) });
  await db.connect();
});

afterAll(async () => {
  await db?.end();
  await dropDatabases([DB]);
});

it('claims the due messages through the due index walked in order, whatever the estimates, without JIT', async () => {
  // In a transaction rolled back: 3 endpoints, 6,000 messages of which 5,995 delivered (leased,
  // then marked, as the worker does) and 5 due, and random reads priced at ten times the default,
  // so that the estimates favour another plan.
  await db.query('BEGIN');
  try {
    await db.query(
      `INSERT INTO webhook_endpoints (id, url, event_types, secret_sealed)
       SELECT gen_random_uuid(), 'https://receiver.test/' || g, '{}', 'sealed' FROM generate_series(1, 3) AS g`,
    );
    await db.query(
      `INSERT INTO webhook_events (id, type, occurred_at, body)
       SELECT gen_random_uuid(), 'chat.message.created', now(), '{}' FROM generate_series(1, 6000)`,
    );
    await db.query(
      `INSERT INTO webhook_messages (endpoint_id, event_id, type, next_attempt_at)
       SELECT e.id, ev.id, 'chat.message.created', now() - interval '1 hour' + ev.n * interval '1 ms'
         FROM (SELECT id, row_number() OVER () AS n FROM webhook_events) AS ev
         JOIN (SELECT id, row_number() OVER () - 1 AS k FROM webhook_endpoints) AS e ON e.k = ev.n % 3`,
    );
    const delivered = `SELECT id FROM webhook_messages ORDER BY next_attempt_at LIMIT 5995`;
    await db.query(
      `UPDATE webhook_messages SET lease_owner = gen_random_uuid(), lease_until = now() WHERE id IN (${delivered})`,
    );
    await db.query(
      `UPDATE webhook_messages SET status = 'delivered', next_attempt_at = NULL, lease_owner = NULL, lease_until = NULL
        WHERE id IN (${delivered})`,
    );
    await db.query('ANALYZE webhook_messages');
    await db.query(`SET LOCAL random_page_cost = 40`);
    await db.query('SAVEPOINT unpinned'); // the claim's leases undone after
    const unpinned = await analyzedPlan(db, CLAIM_DUE, ROUND);
    expect(readsOf(unpinned, 'webhook_messages').join(', ')).not.toContain(
      'Index Scan using webhook_messages_due_idx',
    );
    await db.query('ROLLBACK TO SAVEPOINT unpinned');

    await db.query(`SELECT ${INDEX_SCANS_ONLY}`);
    const { rows } = await db.query<{
      'QUERY PLAN': { Plan: Parameters<typeof readsOf>[0]; JIT?: unknown }[];
    }>(`EXPLAIN (ANALYZE, FORMAT JSON) ${CLAIM_DUE}`, ROUND);
    const [{ Plan: claim, JIT: jit }] = rows[0]['QUERY PLAN'];
    const reads = readsOf(claim, 'webhook_messages').join(', ');
    expect(reads).toContain('Index Scan using webhook_messages_due_idx');
    expect(reads).not.toMatch(/Seq Scan|Bitmap/);
    expect(claim['Actual Rows']).toBe(5);
    expect(jit).toBeUndefined();
  } finally {
    await db.query('ROLLBACK');
  }
});
