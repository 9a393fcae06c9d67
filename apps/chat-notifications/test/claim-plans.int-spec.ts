/**
 * The delivery claims' plans on a real PostgreSQL, with their own tables.
 *
 * - The webhook worker's claim reads the due messages through `webhook_messages_due_idx` walked
 *   in order, whatever PostgreSQL's estimates (INDEX_SCANS_ONLY), because each delivered message
 *   leaves two old versions in that index until vacuum; and with sequential scans so priced, the
 *   statement is still not compiled by JIT (its read of the endpoints, whole, has no index to take).
 * - The push claim reads its own index, `notifications_push_pending_idx`, and not an email backlog
 *   beside it.
 */
import { randomUUID } from 'node:crypto';
import { Client } from 'pg';
import { INDEX_SCANS_ONLY } from '@media/kernel';
import { migrateDatabase } from '@media/platform';
import {
  analyzedPlan,
  createDatabases,
  databaseUrl,
  dropDatabases,
  plannedJit,
  readsOf,
  rowsRead,
} from '@media/testing';
import { chatNotificationsApp } from '../src/app.definition';
import { CLAIM_PUSHES } from '../src/notifications/delivery.worker';
import { CLAIM_DUE, claimDueParams, REPLICA_CONCURRENCY } from '../src/webhooks/webhooks.worker';

const DB = `chat_claim_plans_${process.pid}`;
/** A round of a replica with all of its room free, a lease of a minute. */
const ROUND = claimDueParams(randomUUID(), 60_000, REPLICA_CONCURRENCY);

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
    // The scans turned off without turning JIT off: the endpoints' whole read, priced at 10^10
    // (PostgreSQL 15 to 17), has the statement compiled.
    await db.query(
      `SELECT set_config('enable_seqscan', 'off', true), set_config('enable_bitmapscan', 'off', true),
              set_config('jit', 'on', true)`,
    );
    expect(await plannedJit(db, CLAIM_DUE, ROUND)).toMatchObject({ Functions: expect.any(Number) });
    await db.query('ROLLBACK TO SAVEPOINT unpinned');

    await db.query(`SELECT ${INDEX_SCANS_ONLY}`);
    expect(await plannedJit(db, CLAIM_DUE, ROUND)).toBeUndefined();
    const claim = await analyzedPlan(db, CLAIM_DUE, ROUND);
    const reads = readsOf(claim, 'webhook_messages').join(', ');
    expect(reads).toContain('Index Scan using webhook_messages_due_idx');
    expect(reads).not.toMatch(/Seq Scan|Bitmap/);
    expect(claim['Actual Rows']).toBe(5);
  } finally {
    await db.query('ROLLBACK');
  }
});

it('claims pushes through their own index, not walking past the emails still pending', async () => {
  // In a transaction rolled back: 3,000 notifications pushed long ago whose emails are still
  // pending (the mail server down), then 5 waiting to be pushed.
  await db.query('BEGIN');
  try {
    await db.query(
      `INSERT INTO notifications (recipient_id, notification_type, title, websocket_status, email_status, created_at)
       SELECT gen_random_uuid(), 'custom', 'Hello', CASE WHEN g <= 3000 THEN 'sent' ELSE 'pending' END,
              CASE WHEN g <= 3000 THEN 'pending' ELSE 'skipped' END, now() - interval '1 hour' + g * interval '1 ms'
         FROM generate_series(1, 3005) AS g`,
    );
    await db.query('ANALYZE notifications');
    await db.query(`SELECT ${INDEX_SCANS_ONLY}`);
    const claim = await analyzedPlan(db, CLAIM_PUSHES, [100]);
    expect(readsOf(claim, 'notifications').join(', ')).toContain(
      'Index Scan using notifications_push_pending_idx',
    );
    expect(claim['Actual Rows']).toBe(5);
    // The 5 rows, each read through the index, looked up by key and updated: none of the backlog.
    expect(rowsRead(claim, 'notifications')).toBe(15);
  } finally {
    await db.query('ROLLBACK');
  }
});
