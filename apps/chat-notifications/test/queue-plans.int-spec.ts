/**
 * The delivery worker's claims (pushes and emails) read their pending rows through their partial
 * indexes walked in order (INDEX_SCANS_ONLY): seen from inside each claim's own statement, by a
 * trigger that notes the planner settings it runs under. One in-process replica (./in-process.ts).
 */
import { randomUUID } from 'node:crypto';
import { createPlanNotes, databaseUrl, eventually, queryDatabase } from '@media/testing';
import { Harness } from './in-process';

const h = new Harness();
let db: string;

beforeAll(async () => {
  await h.start();
  await h.boot();
  db = databaseUrl(h.database);
  await createPlanNotes(db);
  await queryDatabase(
    db,
    `CREATE TRIGGER note_push_claims AFTER UPDATE OF websocket_status ON notifications
       FOR EACH ROW WHEN (OLD.websocket_status = 'pending') EXECUTE FUNCTION note_plans('push')`,
  );
  await queryDatabase(
    db,
    `CREATE TRIGGER note_email_claims AFTER UPDATE OF email_claim ON notifications
       FOR EACH ROW WHEN (NEW.email_claim IS NOT NULL) EXECUTE FUNCTION note_plans('email')`,
  );
});

afterAll(async () => {
  await h.stop();
});

it('claims pushes and emails with bitmap and sequential scans off', async () => {
  await h.notify({ recipient_ids: [randomUUID()], notification_type: 'custom', title: 'Hello' });
  // A round of the test's own, and the worker's timer may run one beside it: both claims noted.
  await h.roundEverywhere();
  const noted = await eventually(
    () =>
      queryDatabase<{ pass: string; bitmapscan: string; seqscan: string }>(
        db,
        `SELECT DISTINCT pass, bitmapscan, seqscan FROM noted_plans ORDER BY pass`,
      ),
    (rows) => new Set(rows.map((row) => row.pass)).size === 2,
    { timeoutMs: 10_000, orThrow: 'a push claim and an email claim noted' },
  );
  expect(noted).toEqual([
    { pass: 'email', bitmapscan: 'off', seqscan: 'off' },
    { pass: 'push', bitmapscan: 'off', seqscan: 'off' },
  ]);
});
