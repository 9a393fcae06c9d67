/**
 * Each audited table's own trigger function (compiled-trigger.ts) against `audit_record()`: the
 * same changes of tables with every kind of column, recorded once by each, give the same entries;
 * and migrations that change an audited table are recorded in full while they run and after.
 */
import { Client } from 'pg';
import { DataSource, type MigrationInterface, type QueryRunner } from 'typeorm';
import { createDatabases, databaseUrl, dropDatabases } from '@media/testing';
import { auditTrigger, migrateDatabase } from '../src';
import { useGenericAuditTriggers } from '../src/audit/compiled-trigger';

const DB = `platform_audit_compiled_${process.pid}`;
const APP = 'fixture-compiled';
const WIDE_COLUMNS = 60;
const LONG = 'é'.repeat(600); // 1,200 bytes: over 1 KiB as UTF-8, under it as characters
/** A table whose function's name would be over 63 bytes: it stays on audit_record(). */
const LONG_NAME = 'a_table_whose_name_is_too_long_for_a_function_of_its_own';
const QUOTES = '"'.repeat(600); // 600 bytes, whose JSON text is over 1 KiB

/** Tables with every kind of column the apps have, and some they do not. */
class CreateThings1800000000000 implements MigrationInterface {
  name = 'CreateThings1800000000000';

  async up(q: QueryRunner): Promise<void> {
    await q.query(`CREATE TYPE mood AS ENUM ('calm', 'busy')`);
    await q.query(
      `CREATE COLLATION loose (provider = icu, locale = 'und-u-ks-level2', deterministic = false)`,
    );
    await q.query(`CREATE DOMAIN positive AS integer CHECK (VALUE > 0)`);
    await q.query(`CREATE DOMAIN labels AS text[]`);
    await q.query(`
      CREATE TABLE things (
        id uuid PRIMARY KEY,
        title text NOT NULL,
        body text,
        secret text,
        secret_meta jsonb,
        label varchar(20),
        names varchar(10)[],
        labels labels,
        loose_name text COLLATE loose,
        code char(3),
        meta jsonb,
        raw json,
        tags text[],
        groups uuid[],
        blob bytea,
        amount numeric,
        qty integer,
        big bigint,
        ratio double precision,
        flag boolean,
        mood mood,
        moods mood[],
        size positive,
        at timestamptz(3),
        local_at timestamp,
        day date,
        spot point,
        updated_at timestamptz NOT NULL DEFAULT now()
      )`);
    await q.query(
      auditTrigger({
        app: APP,
        table: 'things',
        type: 'thing',
        redacted: ['secret', 'secret_meta'],
        ignored: ['updated_at'],
      }),
    );
    await q.query(
      `CREATE TABLE thing_links (thing_id uuid NOT NULL, target text NOT NULL, PRIMARY KEY (thing_id, target))`,
    );
    await q.query(
      auditTrigger({
        app: APP,
        table: 'thing_links',
        type: 'thing.link',
        idColumn: 'thing_id',
        verbs: { INSERT: 'linked', DELETE: 'unlinked' },
      }),
    );
    const wide = Array.from({ length: WIDE_COLUMNS }, (_, i) => `c${i} integer`).join(', ');
    await q.query(`CREATE TABLE wide (id integer PRIMARY KEY, ${wide})`);
    await q.query(auditTrigger({ app: APP, table: 'wide', type: 'wide' }));
    await q.query(`CREATE TABLE ${LONG_NAME} (id integer PRIMARY KEY)`);
    await q.query(auditTrigger({ app: APP, table: LONG_NAME, type: 'long' }));
    // No `id` column: the entries have no resource id, as with audit_record().
    await q.query(`CREATE TABLE notes (body text)`);
    await q.query(auditTrigger({ app: APP, table: 'notes', type: 'note' }));
  }

  async down(): Promise<void> {
    throw new Error('not reverted in this test');
  }
}

/** A later migration that adds a column to an audited table and fills it, and drops another. */
class ReshapeThings1800000000100 implements MigrationInterface {
  name = 'ReshapeThings1800000000100';

  async up(q: QueryRunner): Promise<void> {
    await q.query(`ALTER TABLE things ADD COLUMN rank integer`);
    await q.query(`ALTER TABLE things DROP COLUMN spot`);
    await q.query(`DROP TABLE notes`);
    await q.query(`UPDATE things SET rank = 7 WHERE id = 'a0000000-0000-4000-8000-0000000000a1'`);
  }

  async down(): Promise<void> {
    throw new Error('not reverted in this test');
  }
}

/** A later migration that changes only a column's type. */
class RetypeThings1800000000200 implements MigrationInterface {
  name = 'RetypeThings1800000000200';

  async up(q: QueryRunner): Promise<void> {
    await q.query(`ALTER TABLE things ALTER COLUMN qty TYPE bigint`);
  }

  async down(): Promise<void> {
    throw new Error('not reverted in this test');
  }
}

const THING = 'a0000000-0000-4000-8000-0000000000a1';
const CONTEXT = JSON.stringify({
  actor_type: 'user',
  actor_id: 'a0000000-0000-4000-8000-000000000001',
  actor_name: 'Edna Editor',
  request_id: 'req-compiled',
  cause: null,
  actions: { thing: 'thing.renamed' },
});

/** Every kind of change, each its own statement, some of them changing nothing recorded. */
const CHANGES: [sql: string, withContext?: boolean][] = [
  [
    `INSERT INTO things (id, title, body, secret, secret_meta, label, names, labels, loose_name, code, meta, raw,
      tags, groups, blob, amount, qty, big, ratio, flag, mood, moods, size, at, local_at, day, spot)
    VALUES ('${THING}', 'First', '${LONG}', 's3cret', '{"k": 1}', 'short', '{ab,cd}', '{x}', 'Ann', 'ab',
      '{"b": 1, "a": [1, null]}', '{"x": 1}', '{a,b}', '{a0000000-0000-4000-8000-000000000002}', '\\x00ff', 1.50,
      3, 9007199254740993, 0.1, true, 'calm', '{calm,busy}', 4, '2026-11-27T09:00:00.123Z', '2026-11-27 09:00',
      '2026-11-27', '(1,2)')`,
  ],
  [`UPDATE things SET title = 'Second'`, true],
  [`UPDATE things SET title = 'Second'`], // the same value: no entry
  [`UPDATE things SET updated_at = now() + interval '1 day'`], // an ignored column only: no entry
  [`UPDATE things SET meta = '{"a": [1, null], "b": 1}'`], // the same jsonb, keys reordered: no entry
  [`UPDATE things SET amount = 1.5`], // another numeric (1.50 → 1.5), the same number: no entry
  [`UPDATE things SET tags = '[2:3]={a,b}'`], // another array, the same JSON: no entry
  [`UPDATE things SET loose_name = 'ANN'`], // equal in its collation, another JSON string
  [`UPDATE things SET code = 'abc'`],
  [`UPDATE things SET raw = '{"x":  1}'`], // json without =: another text, the same JSON: no entry
  [`UPDATE things SET raw = '{"x": 2}', spot = '(2,3)'`],
  [`UPDATE things SET secret = 'other', body = '${QUOTES}', secret_meta = 'null'`],
  [`UPDATE things SET secret = NULL, body = NULL, meta = 'null'`],
  [`UPDATE things SET meta = NULL`], // JSON null → SQL NULL, both null in the row's JSON: no entry
  [`UPDATE things SET raw = 'null'`],
  [`UPDATE things SET raw = NULL`], // the same for json: no entry
  [
    `UPDATE things SET meta = '{"long": "${'x'.repeat(1100)}"}',
      tags = array_fill('${'y'.repeat(30)}'::text, ARRAY[40])`,
  ],
  [`UPDATE things SET label = '${'q'.repeat(20)}', blob = decode(repeat('ab', 600), 'hex')`],
  [
    `UPDATE things SET qty = NULL, big = big + 1, ratio = 'NaN', flag = false, mood = 'busy', moods = '{}',
      size = 5, at = at + interval '1 ms', local_at = NULL, day = day + 1, groups = '{}', labels = '{y}',
      names = '{ef}'`,
  ],
  [`INSERT INTO thing_links VALUES ('${THING}', 'x'), ('${THING}', 'y')`],
  [`UPDATE thing_links SET target = 'z' WHERE target = 'y'`],
  [`DELETE FROM thing_links`],
  [
    `INSERT INTO wide (id, ${Array.from({ length: WIDE_COLUMNS }, (_, i) => `c${i}`).join(', ')})
    VALUES (1, ${Array.from({ length: WIDE_COLUMNS }, (_, i) => i).join(', ')})`,
  ],
  [`UPDATE wide SET c0 = -1, c59 = -59`],
  [`DELETE FROM wide`],
  [`INSERT INTO notes VALUES ('a note')`],
  [`DELETE FROM things`],
  [`DELETE FROM notes`],
];

/** The recorded entries after `from` (by insertion), as the trigger wrote them. */
async function entriesAfter(db: Client, from: number): Promise<Record<string, unknown>[]> {
  const { rows } = await db.query(
    `SELECT app, action, actor_type, actor_id, actor_name, resource_type, resource_id, request_id, cause, changes
       FROM audit_entries WHERE recorded > $1 ORDER BY recorded`,
    [from],
  );
  return rows;
}

async function lastRecorded(db: Client): Promise<number> {
  const { rows } = await db.query(`SELECT COALESCE(max(recorded), 0) AS last FROM audit_entries`);
  return Number(rows[0].last);
}

/** Runs CHANGES (in a transaction with the audit context where asked); answers their entries. */
async function recordChanges(db: Client): Promise<Record<string, unknown>[]> {
  const from = await lastRecorded(db);
  for (const [sql, withContext] of CHANGES) {
    await db.query('BEGIN');
    if (withContext) await db.query(`SELECT set_config('audit.context', $1, true)`, [CONTEXT]);
    await db.query(sql);
    await db.query('COMMIT');
  }
  return entriesAfter(db, from);
}

async function triggerFunctions(db: Client): Promise<Record<string, string>> {
  const { rows } = await db.query(
    `SELECT c.relname AS table, p.proname AS fn FROM pg_trigger t
       JOIN pg_class c ON c.oid = t.tgrelid JOIN pg_proc p ON p.oid = t.tgfoid
      WHERE t.tgname = c.relname || '_audit'`,
  );
  return Object.fromEntries(rows.map((row) => [row.table, row.fn]));
}

const migrate = (migrations: (new () => MigrationInterface)[]) =>
  migrateDatabase(APP, { url: databaseUrl(DB) }, { entities: [], migrations });

describe("each audited table's own trigger function (compiled-trigger.ts)", () => {
  let db: Client;

  beforeAll(async () => {
    await createDatabases([DB]);
    await migrate([CreateThings1800000000000]);
    db = new Client({ connectionString: databaseUrl(DB) });
    await db.connect();
  });

  afterAll(async () => {
    await db?.end();
    await dropDatabases([DB]);
  });

  it('is what the audited tables call once migrations have run, but for a name too long for it', async () => {
    expect(await triggerFunctions(db)).toEqual({
      things: 'audit_record_things',
      thing_links: 'audit_record_thing_links',
      wide: 'audit_record_wide',
      notes: 'audit_record_notes',
      [LONG_NAME]: 'audit_record',
    });
    const from = await lastRecorded(db);
    await db.query(`INSERT INTO ${LONG_NAME} VALUES (1)`);
    expect(await entriesAfter(db, from)).toMatchObject([
      { action: 'long.created', changes: { id: [null, 1] } },
    ]);
  });

  it('records the same entries as audit_record(), change for change', async () => {
    const compiled = await recordChanges(db);

    const migrations = new DataSource({ type: 'postgres', url: databaseUrl(DB) });
    await migrations.initialize();
    const runner = migrations.createQueryRunner();
    try {
      await useGenericAuditTriggers(runner);
    } finally {
      await runner.release();
      await migrations.destroy();
    }
    expect(await triggerFunctions(db)).toEqual({
      things: 'audit_record',
      thing_links: 'audit_record',
      wide: 'audit_record',
      notes: 'audit_record',
      [LONG_NAME]: 'audit_record',
    });
    const generic = await recordChanges(db);

    expect(compiled).toEqual(generic);
    // The sequence means what it says: these are the changes that were recorded.
    expect(compiled.map((entry) => entry.action)).toEqual([
      'thing.created',
      'thing.renamed',
      'thing.updated', // loose_name
      'thing.updated', // code
      'thing.updated', // raw and spot
      'thing.updated', // the secrets and body
      'thing.updated', // secret, body and meta to null
      'thing.updated', // raw to JSON null
      'thing.updated', // long meta, long tags
      'thing.updated', // label, blob
      'thing.updated', // the fixed-length columns, the domain array, the varchar array
      'thing.link.linked',
      'thing.link.linked',
      'thing.link.updated',
      'thing.link.unlinked',
      'thing.link.unlinked',
      'wide.created',
      'wide.updated',
      'wide.deleted',
      'note.created',
      'thing.deleted',
      'note.deleted',
    ]);
    expect(new Set(compiled.map((entry) => entry.app))).toEqual(new Set([APP]));
    type Entry = { changes: Record<string, unknown>; resource_id: string | null };
    const [created, renamed, , , , secrets, cleared, rawNull, long, label, fixed] = compiled as Entry[];
    expect(created.changes).toMatchObject({
      secret: [null, '[redacted]'],
      secret_meta: [null, '[redacted]'],
      body: [null, expect.stringMatching(/^sha256:[0-9a-f]{64}$/)],
      meta: [null, { a: [1, null], b: 1 }],
      amount: [null, 1.5],
      spot: [null, '(1,2)'],
      code: [null, 'ab '],
      names: [null, ['ab', 'cd']],
      labels: [null, ['x']],
    });
    expect(created.changes).not.toHaveProperty('updated_at');
    expect(renamed).toMatchObject({
      actor_name: 'Edna Editor',
      request_id: 'req-compiled',
      resource_id: THING,
    });
    expect(renamed.changes).toEqual({ title: ['First', 'Second'] });
    expect(secrets.changes).toEqual({
      secret: ['[redacted]', '[redacted]'],
      secret_meta: ['[redacted]', null],
      body: [expect.any(String), QUOTES],
    });
    expect(cleared.changes).toEqual({
      secret: ['[redacted]', null],
      body: [QUOTES, null],
      meta: [{ a: [1, null], b: 1 }, null],
    });
    expect(rawNull.changes).toEqual({ raw: [{ x: 2 }, null] });
    expect(long.changes.meta).toEqual([null, expect.stringMatching(/^sha256:/)]);
    expect(long.changes.tags).toEqual([['a', 'b'], expect.stringMatching(/^sha256:/)]);
    expect(label.changes.blob).toEqual([
      expect.stringMatching(/^\\x00ff$/),
      expect.stringMatching(/^sha256:/),
    ]);
    expect(fixed.changes).toMatchObject({ labels: [['x'], ['y']], names: [['ab', 'cd'], ['ef']] });
    expect(Object.keys((compiled[16] as Entry).changes)).toHaveLength(WIDE_COLUMNS + 1);
    expect(compiled[19] as Entry).toMatchObject({ resource_id: null, changes: { body: [null, 'a note'] } });
  });

  it('records a migration that changes an audited table, and the new columns afterwards', async () => {
    // A start without pending migrations puts every table back on its own function.
    await migrate([CreateThings1800000000000]);
    const own = {
      things: 'audit_record_things',
      thing_links: 'audit_record_thing_links',
      wide: 'audit_record_wide',
      [LONG_NAME]: 'audit_record',
    };
    expect(await triggerFunctions(db)).toEqual({ ...own, notes: 'audit_record_notes' });
    await db.query(`INSERT INTO things (id, title) VALUES ('${THING}', 'Again')`);
    await db.query(`ALTER TABLE wide DISABLE TRIGGER wide_audit`);
    await db.query(`ALTER TABLE thing_links ENABLE REPLICA TRIGGER thing_links_audit`);
    await db.query(
      `CREATE FUNCTION audit_record_foreign() RETURNS trigger LANGUAGE plpgsql AS $$ BEGIN RETURN NULL; END $$`,
    );
    const from = await lastRecorded(db);

    await migrate([CreateThings1800000000000, ReshapeThings1800000000100]);

    expect(await triggerFunctions(db)).toEqual(own);
    // Pointed at audit_record() and back, each trigger is as enabled as it was.
    const { rows: enabled } = await db.query(
      `SELECT tgname, tgenabled FROM pg_trigger WHERE tgname IN ('wide_audit', 'thing_links_audit') ORDER BY 1`,
    );
    expect(enabled).toEqual([
      { tgname: 'thing_links_audit', tgenabled: 'R' },
      { tgname: 'wide_audit', tgenabled: 'D' },
    ]);
    // A function of that name the platform did not write is left alone.
    const { rows: foreign } = await db.query(`SELECT 1 FROM pg_proc WHERE proname = 'audit_record_foreign'`);
    expect(foreign).toHaveLength(1);

    await db.query(`UPDATE things SET rank = 8, title = 'Later'`);
    const entries = await entriesAfter(db, from);
    expect(entries.map((entry) => entry.changes)).toEqual([
      // By the migration, recorded by audit_record(): the function written before would have
      // missed the new column, and failed on the dropped one.
      { rank: [null, 7] },
      // By the function written for the new columns.
      { rank: [7, 8], title: ['Again', 'Later'] },
    ]);

    await db.query(`DROP FUNCTION audit_record_foreign()`);
    await db.query(`ALTER TABLE wide ENABLE TRIGGER wide_audit`);
    await db.query(`ALTER TABLE thing_links ENABLE TRIGGER thing_links_audit`);
    const { rows } = await db.query(
      `SELECT count(*)::int AS written FROM pg_proc WHERE proname LIKE 'audit\\_record\\_%'`,
    );
    expect(rows[0].written).toBe(3); // notes' went with its table
  });

  it('is not written again, and takes no lock, when a start finds the tables unchanged', async () => {
    // Each function's and trigger's catalog row version: a rewrite would give it a new one.
    const versions = async () =>
      (
        await db.query(
          `SELECT p.proname, p.xmin::text AS function, t.xmin::text AS trigger
             FROM pg_proc p JOIN pg_trigger t ON t.tgfoid = p.oid
            WHERE p.proname LIKE 'audit\\_record\\_%'
            ORDER BY p.proname`,
        )
      ).rows;
    const before = await versions();
    expect(before).toHaveLength(3);
    await migrate([CreateThings1800000000000, ReshapeThings1800000000100]);
    expect(await versions()).toEqual(before);
  });

  it("is written again when a migration changes only a column's type, for a session that used it", async () => {
    // This session's plan of the function has qty as an integer; the migration makes it a bigint,
    // and a plan kept for the old type would fail the table's next write in this session.
    await db.query(`UPDATE things SET qty = 4`);
    const from = await lastRecorded(db);
    await migrate([CreateThings1800000000000, ReshapeThings1800000000100, RetypeThings1800000000200]);
    await db.query(`UPDATE things SET qty = 5`);
    expect((await entriesAfter(db, from)).map((entry) => entry.changes)).toEqual([{ qty: [4, 5] }]);
  });
});
