import type { QueryRunner } from 'typeorm';
import type { AuditedTable } from './recording';

/**
 * Each audited table's own trigger function, written from the table's columns (CONTRACT §8.1).
 *
 * `audit_record()` is generic: it turns both rows into JSON and walks their keys in a query to find
 * the changed fields, at every row change. A function written for one table compares its columns
 * one by one (`NEW.status IS DISTINCT FROM OLD.status`) and turns into JSON only the fields that
 * changed: on assignment's claim, about a third less than the generic function
 * (docs/benchmarks.md, "Each table's own trigger function").
 * Hasura's event triggers and django-pgtrigger work the same way: a function per table, written
 * again when the table changes.
 *
 * The entries are the same as `audit_record()`'s, field for field (the platform's tests run both on
 * the same changes of a table with every kind of column). What can make a written function wrong
 * is a later change of its table, so `runMigrations` points every audited table back at
 * `audit_record()` before it applies migrations (a migration that adds a column and fills it is
 * recorded in full) and writes the functions again afterwards, from the columns the tables have
 * then. A schema changed by hand, outside migrations, is recorded by the stale function until the
 * app's next start (a dropped column then fails the table's writes, an added one is not recorded):
 * change audited tables through migrations.
 */

/** A column as the function is written for it. */
export interface AuditedColumn {
  name: string;
  /**
   * Its type as declared (`format_type`), named in the function's text: a migration that changes
   * only a column's type changes the text, so the function is written again and every session
   * drops its plans for the old type (a PL/pgSQL plan keeps the types it was made for, and a
   * write through it fails once the column's type has changed).
   */
  type: string;
  /** Its storage length: -1 for variable-length values (text, jsonb, arrays), which can exceed 1 KiB. */
  length: number;
  /**
   * Whether its `=` is the equality of its JSON (`audit_record()` compares the values' JSON), so a
   * change is found on the values themselves: the scalar types of SAME_AS_JSON and enums, under a
   * deterministic collation. Any other column is compared as JSON.
   */
  comparable: boolean;
  /** Whether it is text or varchar (not an array of them): its value is a JSON string of its own bytes. */
  textual: boolean;
}

/**
 * The name of `table`'s own function, or none when it would be over 63 bytes (PostgreSQL would cut
 * it, and two tables could share one): such a table stays on `audit_record()`.
 */
export function compiledFunctionName(table: string): string | undefined {
  const name = `audit_record_${table}`;
  return Buffer.byteLength(name) <= 63 ? name : undefined;
}

const ident = (name: string) => `"${name.replace(/"/g, '""')}"`;
const literal = (value: string) => `'${value.replace(/'/g, "''")}'`;
/** The mark of a written function's body, by which the ones no trigger calls any more are found. */
const WRITTEN_BY = 'Written by the platform (libs/platform/src/audit/compiled-trigger.ts)';
/** PostgreSQL takes 100 arguments at most: a jsonb_build_object of 50 pairs, the rest joined by `||`. */
const PAIRS_PER_CALL = 50;

/**
 * One side of a field as recorded (`audit_record()`'s `recordedValueSql`, for a known column):
 * null for a missing row or a null value, "[redacted]", "sha256:<hex>" for a value over 1 KiB
 * (a string's own UTF-8 bytes, another value's JSON text), else its JSON.
 */
function recordedSql(row: 'OLD' | 'NEW', column: AuditedColumn, redacted: boolean): string {
  const value = `${row}.${ident(column.name)}`;
  const json = `to_jsonb(${value})`;
  const digest = (text: string) =>
    `to_jsonb('sha256:' || encode(sha256(convert_to(${text}, 'UTF8')), 'hex'))`;
  if (redacted)
    return `CASE WHEN ${json} IS NULL OR ${json} = 'null'::jsonb THEN 'null'::jsonb ELSE '"[redacted]"'::jsonb END`;
  // A fixed-length value (a number, a uuid, a date) is never 1 KiB of JSON.
  if (column.length > 0) return json;
  if (column.textual) return `CASE WHEN octet_length(${value}) > 1024 THEN ${digest(value)} ELSE ${json} END`;
  return `CASE
          WHEN ${json} IS NULL OR octet_length(${json}::text) <= 1024 THEN ${json}
          WHEN jsonb_typeof(${json}) <> 'string' THEN ${digest(`${json}::text`)}
          WHEN octet_length(${json} #>> '{}') > 1024 THEN ${digest(`${json} #>> '{}'`)}
          ELSE ${json} END`;
}

/** `[before, after]` of one field for the given operation's rows. */
function pairSql(op: 'INSERT' | 'UPDATE' | 'DELETE', column: AuditedColumn, redacted: boolean): string {
  const before = op === 'INSERT' ? 'NULL::jsonb' : recordedSql('OLD', column, redacted);
  const after = op === 'DELETE' ? 'NULL::jsonb' : recordedSql('NEW', column, redacted);
  return `jsonb_build_array(${before}, ${after})`;
}

/** Every field of a created or deleted row: `{"field": [before, after], …}` (`{}` when none). */
function wholeRowSql(op: 'INSERT' | 'DELETE', columns: AuditedColumn[], redacted: Set<string>): string {
  if (columns.length === 0) return `'{}'::jsonb`;
  const calls: string[] = [];
  for (let from = 0; from < columns.length; from += PAIRS_PER_CALL)
    calls.push(
      `jsonb_build_object(${columns
        .slice(from, from + PAIRS_PER_CALL)
        .map(
          (column) =>
            `\n          ${literal(column.name)}, ${pairSql(op, column, redacted.has(column.name))}`,
        )
        .join(',')})`,
    );
  return calls.join('\n        || ');
}

/** The entry's INSERT, the row being `row` (its resource id, its verb). */
function insertSql(spec: AuditedTable, columns: AuditedColumn[], op: 'INSERT' | 'UPDATE' | 'DELETE'): string {
  const verbs = { INSERT: 'created', UPDATE: 'updated', DELETE: 'deleted', ...spec.verbs };
  const row = op === 'DELETE' ? 'OLD' : 'NEW';
  const idColumn = spec.idColumn ?? 'id';
  // `audit_record()` reads the id from the row's JSON: none when the table has no such column.
  const resourceId = columns.some((column) => column.name === idColumn)
    ? `to_jsonb(${row}.${ident(idColumn)}) #>> '{}'`
    : 'NULL';
  return `INSERT INTO audit_entries
        (app, action, actor_type, actor_id, actor_name, resource_type, resource_id, request_id, cause, changes)
      VALUES (
        ${literal(spec.app)},
        COALESCE(ctx -> 'actions' ->> ${literal(spec.type)}, ${literal(`${spec.type}.${verbs[op]}`)}),
        COALESCE(ctx ->> 'actor_type', 'system'),
        COALESCE(ctx ->> 'actor_id', ${literal(spec.app)}),
        ctx ->> 'actor_name',
        ${literal(spec.type)},
        ${resourceId},
        ctx ->> 'request_id',
        ctx ->> 'cause',
        diff);`;
}

/**
 * The body of `table`'s own trigger function: for an UPDATE, each recorded column compared on its
 * own (`IS DISTINCT FROM` on the values where their `=` is their JSON's equality, else on their
 * JSON), and only a changed one's `[before, after]` built; for an INSERT or DELETE, every recorded
 * column.
 */
export function compiledAuditBody(spec: AuditedTable, columns: AuditedColumn[]): string {
  const ignored = new Set(spec.ignored);
  const redacted = new Set(spec.redacted);
  const recorded = columns.filter((column) => !ignored.has(column.name));
  const changes = recorded.map((column) => {
    const [oldValue, newValue] = ['OLD', 'NEW'].map((row) => `${row}.${ident(column.name)}`);
    // As JSON, a null value is JSON null (`to_jsonb(row) -> key`): a json or jsonb column going
    // from SQL NULL to JSON null is no change, as in `audit_record()`.
    const asJson = (value: string) => `COALESCE(to_jsonb(${value}), 'null'::jsonb)`;
    const changed = column.comparable
      ? `${newValue} IS DISTINCT FROM ${oldValue}`
      : `${asJson(newValue)} IS DISTINCT FROM ${asJson(oldValue)}`;
    return `IF ${changed} THEN
        diff := diff || jsonb_build_object(${literal(column.name)}, ${pairSql('UPDATE', column, redacted.has(column.name))});
      END IF;`;
  });
  return `
  DECLARE
    ctx jsonb := COALESCE(NULLIF(current_setting('audit.context', true), '')::jsonb, '{}'::jsonb);
    diff jsonb := '{}'::jsonb;
  BEGIN
    -- ${WRITTEN_BY} from the columns of ${spec.table}: do not edit.
    -- ${columns.map((column) => `${column.name} ${column.type}`).join(', ')}
    IF TG_OP = 'UPDATE' THEN
      ${changes.join('\n      ')}
      -- An update of ignored columns only (a timestamp, a version) is no change.
      IF diff = '{}'::jsonb THEN RETURN NULL; END IF;
      ${insertSql(spec, columns, 'UPDATE')}
    ELSIF TG_OP = 'INSERT' THEN
      diff := ${wholeRowSql('INSERT', recorded, redacted)};
      ${insertSql(spec, columns, 'INSERT')}
    ELSE
      diff := ${wholeRowSql('DELETE', recorded, redacted)};
      ${insertSql(spec, columns, 'DELETE')}
    END IF;
    RETURN NULL;
  END `;
}

/** An audit row trigger as the catalog has it. */
interface InstalledTrigger {
  relid: number;
  schema: string;
  table: string;
  /** `audit_record()`'s arguments (the table's `AuditedTable`), kept when the trigger is pointed elsewhere. */
  args: string[];
  fn: string;
  /** `tgenabled`: O (on), D (disabled), R (replica only), A (always). */
  enabled: string;
}

/** Every `<table>_audit` trigger of the current schema calling `audit_record()` or its table's own function. */
async function installedTriggers(q: QueryRunner): Promise<InstalledTrigger[]> {
  const rows: (Omit<InstalledTrigger, 'args'> & { args: Buffer })[] = await q.query(`
    SELECT t.tgrelid::int AS relid, n.nspname AS schema, c.relname AS table, p.proname AS fn,
           t.tgargs AS args, t.tgenabled AS enabled
      FROM pg_trigger t
      JOIN pg_class c ON c.oid = t.tgrelid
      JOIN pg_namespace n ON n.oid = c.relnamespace
      JOIN pg_proc p ON p.oid = t.tgfoid
     WHERE NOT t.tgisinternal
       AND n.nspname = current_schema()
       AND t.tgname = c.relname || '_audit'
       AND p.proname IN ('audit_record', 'audit_record_' || c.relname)
     ORDER BY c.relname`);
  // tgargs: each argument's bytes followed by a zero byte.
  return rows.map((row) => ({ ...row, args: row.args.toString('utf8').split('\0').slice(0, -1) }));
}

/** The tables' specs from their triggers' arguments (`auditTrigger` wrote them), in one query. */
async function specsOf(q: QueryRunner, triggers: InstalledTrigger[]): Promise<AuditedTable[]> {
  const parsed: { redacted: string[]; ignored: string[]; verbs: AuditedTable['verbs'] }[] = await q.query(
    `SELECT r::text[] AS redacted, i::text[] AS ignored, v::jsonb AS verbs
       FROM unnest($1::text[], $2::text[], $3::text[]) WITH ORDINALITY AS arg(r, i, v, n) ORDER BY n`,
    [2, 3, 5].map((at) => triggers.map((trigger) => trigger.args[at])),
  );
  return triggers.map((trigger, i) => {
    const [app, type, , , idColumn] = trigger.args;
    return { app, table: trigger.table, type, idColumn, ...parsed[i] };
  });
}

/**
 * Scalar types whose `=` is what `audit_record()` compares, the equality of their JSON: the same
 * value, the same JSON (`1.5 = 1.50` as numbers and as JSON numbers). Not arrays (`'[2:3]={a}'`
 * and `'{a}'` are different arrays and the same JSON), nor json and jsonb (SQL NULL and JSON null
 * are different values and the same JSON), nor domains, nor `citext` or a non-deterministic
 * collation (`'Ann' = 'ANN'`, two JSON strings).
 */
const SAME_AS_JSON = new Set([
  'text',
  'character varying',
  'uuid',
  'smallint',
  'integer',
  'bigint',
  'boolean',
  'numeric',
  'date',
  'timestamp with time zone',
  'timestamp without time zone',
]);

/** Each table's columns as its function is written for them, in their order, by table oid. */
async function columnsOf(q: QueryRunner, relids: number[]): Promise<Map<number, AuditedColumn[]>> {
  const rows: {
    relid: number;
    name: string;
    length: number;
    declared: string;
    type: string;
    enum: boolean;
    deterministic: boolean;
  }[] = await q.query(
    `SELECT a.attrelid::int AS relid, a.attname AS name, a.attlen AS length,
              format_type(a.atttypid, a.atttypmod) AS declared, format_type(a.atttypid, NULL) AS type,
              t.typtype = 'e' AS enum, COALESCE(co.collisdeterministic, true) AS deterministic
         FROM pg_attribute a
         JOIN pg_type t ON t.oid = a.atttypid
         LEFT JOIN pg_collation co ON co.oid = a.attcollation
        WHERE a.attrelid = ANY ($1::oid[]) AND a.attnum > 0 AND NOT a.attisdropped
        ORDER BY a.attrelid, a.attnum`,
    [relids],
  );
  const columns = new Map(relids.map((relid) => [relid, [] as AuditedColumn[]]));
  for (const { relid, name, length, declared, type, enum: isEnum, deterministic } of rows)
    columns.get(relid)?.push({
      name,
      type: declared,
      length: Number(length),
      comparable: deterministic && (isEnum || SAME_AS_JSON.has(type)),
      textual: type === 'text' || type === 'character varying',
    });
  return columns;
}

/** The bodies of the functions named, as the catalog has them now, by name. */
async function writtenBodies(q: QueryRunner, names: string[]): Promise<Map<string, string>> {
  const rows: { fn: string; body: string }[] = await q.query(
    `SELECT p.proname AS fn, p.prosrc AS body FROM pg_proc p
      WHERE p.pronamespace = current_schema()::regnamespace AND p.proname = ANY ($1::text[])`,
    [names],
  );
  return new Map(rows.map(({ fn, body }) => [fn, body]));
}

const ENABLED_AS: Record<string, string> = { D: 'DISABLE', R: 'ENABLE REPLICA', A: 'ENABLE ALWAYS' };

/**
 * Points the table's audit trigger at `fn` with the same arguments. CREATE OR REPLACE TRIGGER
 * enables a trigger it replaces: one disabled (or replica-only) is set back as it was by the same
 * query (statements sent together, without parameters, run as one transaction), so no write in
 * between fires it and no crash leaves it enabled.
 */
async function pointTrigger(q: QueryRunner, trigger: InstalledTrigger, fn: string): Promise<void> {
  const table = `${ident(trigger.schema)}.${ident(trigger.table)}`;
  const name = ident(`${trigger.table}_audit`);
  const enabled = ENABLED_AS[trigger.enabled];
  const statements = [
    `CREATE OR REPLACE TRIGGER ${name} AFTER INSERT OR UPDATE OR DELETE ON ${table}
      FOR EACH ROW EXECUTE FUNCTION ${ident(trigger.schema)}.${ident(fn)}(${trigger.args.map(literal).join(', ')})`,
    ...(enabled ? [`ALTER TABLE ${table} ${enabled} TRIGGER ${name}`] : []),
  ];
  await q.query(statements.join(';\n'));
}

/**
 * Points every audited table back at `audit_record()`, which reads each row as it is: before
 * migrations change the tables the written functions were written for. (Each switch takes the
 * table's SHARE ROW EXCLUSIVE lock for a moment, as the migrations' own DDL would.)
 */
export async function useGenericAuditTriggers(q: QueryRunner): Promise<void> {
  for (const trigger of await installedTriggers(q))
    if (trigger.fn !== 'audit_record') await pointTrigger(q, trigger, 'audit_record');
}

/**
 * Writes each audited table's own function from its columns as they are now (only where its text
 * changed, so a start without a schema change takes no lock) and points the table's trigger at
 * it; drops the written functions no trigger calls any more. Each statement stands alone: stopped
 * halfway, some tables are on their own function and the rest on `audit_record()`, both right.
 */
export async function compileAuditTriggers(q: QueryRunner): Promise<void> {
  const compiled = (await installedTriggers(q)).flatMap((trigger) => {
    const fn = compiledFunctionName(trigger.table);
    return fn ? [{ trigger, fn }] : [];
  });
  if (compiled.length > 0) {
    const triggers = compiled.map(({ trigger }) => trigger);
    const specs = await specsOf(q, triggers);
    const columns = await columnsOf(
      q,
      triggers.map((trigger) => trigger.relid),
    );
    const written = await writtenBodies(
      q,
      compiled.map(({ fn }) => fn),
    );
    for (const [i, { trigger, fn }] of compiled.entries()) {
      const body = compiledAuditBody(specs[i], columns.get(trigger.relid) ?? []);
      if (written.get(fn) !== body)
        await q.query(
          `CREATE OR REPLACE FUNCTION ${ident(trigger.schema)}.${ident(fn)}() RETURNS trigger LANGUAGE plpgsql AS $body$${body}$body$`,
        );
      if (trigger.fn !== fn) await pointTrigger(q, trigger, fn);
    }
  }
  const unused: { schema: string; fn: string }[] = await q.query(
    `SELECT n.nspname AS schema, p.proname AS fn FROM pg_proc p JOIN pg_namespace n ON n.oid = p.pronamespace
      WHERE n.nspname = current_schema() AND p.prorettype = 'trigger'::regtype
        AND strpos(p.prosrc, $1) > 0
        AND NOT EXISTS (SELECT 1 FROM pg_trigger t WHERE t.tgfoid = p.oid)`,
    [WRITTEN_BY],
  );
  for (const { schema, fn } of unused) await q.query(`DROP FUNCTION ${ident(schema)}.${ident(fn)}()`);
}
