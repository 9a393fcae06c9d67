/**
 * The workers that pass over a queue kept by a partial index on a state they change themselves
 * (the outbox relay's pending rows, the audit sealer's unsealed entries) plan their passes to read
 * through indexes walked in order (INDEX_SCANS_ONLY): seen from inside each pass's own statement,
 * by a trigger that notes the planner settings it runs under. (The plans themselves:
 * libs/messaging/test/outbox-plans.int-spec.ts and libs/platform/test/audit.int-spec.ts.)
 */
import { randomUUID } from 'node:crypto';
import { ChatEvents } from '@media/contracts';
import { createPlanNotes, eventually, queryDatabase } from '@media/testing';
import { bootFixture, type BootedFixture } from './fixture/boot';

let fixture: BootedFixture;

beforeAll(async () => {
  fixture = await bootFixture();
  await createPlanNotes(fixture.db);
});

afterAll(async () => {
  await fixture?.stop();
});

/** The settings each noted pass of `pass` ran under, once there is one. */
const notedPlans = (pass: string) =>
  eventually(
    () =>
      queryDatabase<{ bitmapscan: string; seqscan: string }>(
        fixture.db,
        `SELECT bitmapscan, seqscan FROM noted_plans WHERE pass = $1`,
        [pass],
      ),
    (rows) => rows.length > 0,
    { timeoutMs: 10_000, orThrow: `a noted ${pass} pass` },
  );

it("runs the outbox relay's claim with bitmap and sequential scans off", async () => {
  await queryDatabase(
    fixture.db,
    `CREATE TRIGGER note_claims AFTER UPDATE OF claimed_until ON outbox
       FOR EACH ROW WHEN (NEW.claimed_until IS NOT NULL) EXECUTE FUNCTION note_plans('claim')`,
  );
  await queryDatabase(fixture.db, `INSERT INTO outbox (id, subject, payload) VALUES ($1, $2, '{}')`, [
    randomUUID(),
    ChatEvents.messageCreated,
  ]);
  const noted = await notedPlans('claim');
  expect(new Set(noted.map((row) => `${row.bitmapscan} ${row.seqscan}`))).toEqual(new Set(['off off']));
});

it("runs the audit sealer's pass with bitmap and sequential scans off", async () => {
  await queryDatabase(
    fixture.db,
    `CREATE TRIGGER note_seals AFTER UPDATE OF seq ON audit_entries
       FOR EACH ROW WHEN (NEW.seq IS NOT NULL) EXECUTE FUNCTION note_plans('seal')`,
  );
  await queryDatabase(
    fixture.db,
    `INSERT INTO audit_entries (app, action, actor_type, actor_id, resource_type, resource_id)
     VALUES ('fixture', 'thing.updated', 'system', 'fixture', 'thing', $1)`,
    [randomUUID()],
  );
  const noted = await notedPlans('seal');
  expect(new Set(noted.map((row) => `${row.bitmapscan} ${row.seqscan}`))).toEqual(new Set(['off off']));
});
