import type { EntityManager, MigrationInterface, QueryRunner } from 'typeorm';
import { auditContextNow } from './context';

/**
 * The SQL expression of one side (`ov` or `nv`, a jsonb field value, SQL NULL for the missing
 * row) as recorded: null for the missing row or a null value, "[redacted]" for a redacted column
 * (`key` names the field, `redacted` is the trigger's text[] of such columns), "sha256:<hex>"
 * for a value whose text is over 1 KiB (a string's own UTF-8 bytes, another value's JSON), else
 * the value. Inline rather than a function: measured, a SQL function called per field cost
 * several times the whole UPDATE it audits.
 */
export function recordedValueSql(side: string, key = 'k'): string {
  const digest = (text: string) =>
    `to_jsonb('sha256:' || encode(sha256(convert_to(${text}, 'UTF8')), 'hex'))`;
  return `CASE
    WHEN ${side} IS NULL OR ${side} = 'null'::jsonb THEN 'null'::jsonb
    WHEN ${key} = ANY (redacted) THEN '"[redacted]"'::jsonb
    WHEN octet_length(${side}::text) <= 1024 THEN ${side}
    WHEN jsonb_typeof(${side}) <> 'string' THEN ${digest(`${side}::text`)}
    WHEN octet_length(${side} #>> '{}') > 1024 THEN ${digest(`${side} #>> '{}'`)}
    ELSE ${side} END`;
}

/** The body of `audit_record()` as this migration created it (a later one replaced it; its `down` puts this back). */
export const FIRST_AUDIT_RECORD_BODY = `
      DECLARE
        app text := TG_ARGV[0];
        rtype text := TG_ARGV[1];
        redacted text[] := TG_ARGV[2]::text[];
        ignored text[] := TG_ARGV[3]::text[];
        id_column text := TG_ARGV[4];
        verbs jsonb := TG_ARGV[5]::jsonb;
        ctx jsonb := COALESCE(NULLIF(current_setting('audit.context', true), '')::jsonb, '{}'::jsonb);
        old_row jsonb;
        new_row jsonb;
        diff jsonb;
      BEGIN
        IF TG_OP <> 'INSERT' THEN old_row := to_jsonb(OLD); END IF;
        IF TG_OP <> 'DELETE' THEN new_row := to_jsonb(NEW); END IF;
        SELECT COALESCE(jsonb_object_agg(k, jsonb_build_array(${recordedValueSql('ov')}, ${recordedValueSql('nv')})), '{}'::jsonb)
          INTO diff
          FROM (SELECT k, old_row -> k AS ov, new_row -> k AS nv
                  FROM jsonb_object_keys(COALESCE(new_row, old_row)) AS k) AS fields
         WHERE NOT (k = ANY (ignored))
           AND (TG_OP <> 'UPDATE' OR ov IS DISTINCT FROM nv);
        -- An update of ignored columns only (a timestamp, a version) is no change.
        IF TG_OP = 'UPDATE' AND diff = '{}'::jsonb THEN RETURN NULL; END IF;
        INSERT INTO audit_entries
          (app, action, actor_type, actor_id, actor_name, resource_type, resource_id, request_id, cause, changes)
        VALUES (
          app,
          COALESCE(ctx -> 'actions' ->> rtype, rtype || '.' || (verbs ->> TG_OP)),
          COALESCE(ctx ->> 'actor_type', 'system'),
          COALESCE(ctx ->> 'actor_id', app),
          ctx ->> 'actor_name',
          rtype,
          COALESCE(new_row, old_row) ->> id_column,
          ctx ->> 'request_id',
          ctx ->> 'cause',
          diff);
        RETURN NULL;
      END `;

/**
 * The database side of recording (CONTRACT §8.1, §8.2), in every app's database:
 *
 * - `audit_record()`: the generic AFTER INSERT/UPDATE/DELETE row trigger an app installs on each
 *   audited table (`auditTrigger`). It writes one entry per changed row in the change's own
 *   transaction (a rollback leaves none), with only the changed fields as `[before, after]`
 *   (create: before null; delete: after null), redacted columns as "[redacted]", a value whose
 *   text is over 1 KiB as "sha256:<hex>". Actor, request id, cause and business verbs come from
 *   the transaction-local `audit.context` the platform sets at every transaction start
 *   (`AuditContextSubscriber`); a write outside any transaction has none and names the app.
 * - append-only guards on `audit_entries` and `audit_checkpoints`: UPDATE is refused except the
 *   sealer's one-time setting of seq/prev_hash/hash on an unsealed entry; DELETE is refused
 *   except retention's prefix (entries up to a checkpoint older than the `audit.retention` set
 *   by the pruning transaction, and the checkpoints before it); TRUNCATE is refused.
 * - `audit_published`: how far the AUDIT stream has the sealed entries (the publisher's resume point).
 */
export class CreateAuditRecording1764900000100 implements MigrationInterface {
  name = 'CreateAuditRecording1764900000100';

  async up(q: QueryRunner): Promise<void> {
    await q.query(`
      CREATE FUNCTION audit_record() RETURNS trigger LANGUAGE plpgsql AS $$${FIRST_AUDIT_RECORD_BODY}$$`);
    await q.query(`
      CREATE FUNCTION audit_entries_guard() RETURNS trigger LANGUAGE plpgsql AS $$
      DECLARE
        keep interval;
      BEGIN
        IF TG_OP = 'UPDATE' THEN
          IF OLD.seq IS NULL AND NEW.seq IS NOT NULL AND NEW.prev_hash IS NOT NULL AND NEW.hash IS NOT NULL
             AND (NEW.id, NEW.recorded, NEW.tx, NEW.at, NEW.app, NEW.action, NEW.actor_type, NEW.actor_id,
                  NEW.actor_name, NEW.resource_type, NEW.resource_id, NEW.request_id, NEW.cause, NEW.changes)
                 IS NOT DISTINCT FROM
                 (OLD.id, OLD.recorded, OLD.tx, OLD.at, OLD.app, OLD.action, OLD.actor_type, OLD.actor_id,
                  OLD.actor_name, OLD.resource_type, OLD.resource_id, OLD.request_id, OLD.cause, OLD.changes) THEN
            RETURN NEW;
          END IF;
          RAISE EXCEPTION 'audit entries are append-only: UPDATE refused' USING ERRCODE = 'insufficient_privilege';
        END IF;
        keep := NULLIF(current_setting('audit.retention', true), '')::interval;
        IF keep IS NOT NULL AND OLD.seq IS NOT NULL AND EXISTS (
             SELECT 1 FROM audit_checkpoints c WHERE c.seq >= OLD.seq AND c.at < now() - keep) THEN
          RETURN OLD;
        END IF;
        RAISE EXCEPTION 'audit entries are append-only: DELETE refused' USING ERRCODE = 'insufficient_privilege';
      END $$`);
    await q.query(`
      CREATE FUNCTION audit_checkpoints_guard() RETURNS trigger LANGUAGE plpgsql AS $$
      DECLARE
        keep interval;
      BEGIN
        IF TG_OP = 'DELETE' THEN
          keep := NULLIF(current_setting('audit.retention', true), '')::interval;
          IF keep IS NOT NULL AND EXISTS (
               SELECT 1 FROM audit_checkpoints c WHERE c.seq > OLD.seq AND c.at < now() - keep) THEN
            RETURN OLD;
          END IF;
        END IF;
        RAISE EXCEPTION 'audit checkpoints are append-only: % refused', TG_OP USING ERRCODE = 'insufficient_privilege';
      END $$`);
    await q.query(`
      CREATE FUNCTION audit_truncate_guard() RETURNS trigger LANGUAGE plpgsql AS $$
      BEGIN
        RAISE EXCEPTION 'the audit tables are append-only: TRUNCATE refused' USING ERRCODE = 'insufficient_privilege';
      END $$`);
    await q.query(`CREATE TRIGGER audit_entries_append_only BEFORE UPDATE OR DELETE ON audit_entries
      FOR EACH ROW EXECUTE FUNCTION audit_entries_guard()`);
    await q.query(`CREATE TRIGGER audit_checkpoints_append_only BEFORE UPDATE OR DELETE ON audit_checkpoints
      FOR EACH ROW EXECUTE FUNCTION audit_checkpoints_guard()`);
    await q.query(`CREATE TRIGGER audit_entries_no_truncate BEFORE TRUNCATE ON audit_entries
      FOR EACH STATEMENT EXECUTE FUNCTION audit_truncate_guard()`);
    await q.query(`CREATE TRIGGER audit_checkpoints_no_truncate BEFORE TRUNCATE ON audit_checkpoints
      FOR EACH STATEMENT EXECUTE FUNCTION audit_truncate_guard()`);
    await q.query(`
      CREATE TABLE audit_published (
        only_row boolean PRIMARY KEY DEFAULT true CHECK (only_row),
        seq bigint NOT NULL DEFAULT 0
      )`);
    await q.query(`INSERT INTO audit_published DEFAULT VALUES`);
  }

  async down(q: QueryRunner): Promise<void> {
    await q.query(`DROP TABLE audit_published`);
    await q.query(`DROP TRIGGER audit_checkpoints_no_truncate ON audit_checkpoints`);
    await q.query(`DROP TRIGGER audit_entries_no_truncate ON audit_entries`);
    await q.query(`DROP TRIGGER audit_checkpoints_append_only ON audit_checkpoints`);
    await q.query(`DROP TRIGGER audit_entries_append_only ON audit_entries`);
    await q.query(`DROP FUNCTION audit_truncate_guard()`);
    await q.query(`DROP FUNCTION audit_checkpoints_guard()`);
    await q.query(`DROP FUNCTION audit_entries_guard()`);
    await q.query(`DROP FUNCTION audit_record()`);
  }
}

/** How one table's rows are audited. */
export interface AuditedTable {
  /** The app (the entries' `app`). */
  app: string;
  table: string;
  /** The entries' `resource.type`, also the action's prefix (`<type>.created`). */
  type: string;
  /** Columns whose values are written as "[redacted]" (secrets, password hashes, tokens). */
  redacted?: string[];
  /** Columns that are not changes of their own (updated_at, version, derived search vectors). */
  ignored?: string[];
  /** The column naming `resource.id` (default `id`); a link table names its parent's. */
  idColumn?: string;
  /** The verbs of INSERT, UPDATE and DELETE (default created, updated, deleted). */
  verbs?: { INSERT?: string; UPDATE?: string; DELETE?: string };
}

const sqlText = (value: string) => `'${value.replace(/'/g, "''")}'`;
const sqlArray = (values: string[] = []) => sqlText(`{${values.map((v) => `"${v}"`).join(',')}}`);

/** The statement installing the audit row trigger on one table (for an app's migration). */
export function auditTrigger(spec: AuditedTable): string {
  const verbs = { INSERT: 'created', UPDATE: 'updated', DELETE: 'deleted', ...spec.verbs };
  const args = [
    sqlText(spec.app),
    sqlText(spec.type),
    sqlArray(spec.redacted),
    sqlArray(spec.ignored),
    sqlText(spec.idColumn ?? 'id'),
    sqlText(JSON.stringify(verbs)),
  ].join(', ');
  return `CREATE TRIGGER ${spec.table}_audit AFTER INSERT OR UPDATE OR DELETE ON ${spec.table}
    FOR EACH ROW EXECUTE FUNCTION audit_record(${args})`;
}

/** The statement removing it. */
export function dropAuditTrigger(table: string): string {
  return `DROP TRIGGER IF EXISTS ${table}_audit ON ${table}`;
}

/** An audit entry that is not a row change (acl's security events, CONTRACT §8.1). */
export interface AuditEvent {
  action: string;
  resource: { type: string; id: string | null };
  changes?: Record<string, [unknown, unknown]>;
}

/**
 * Records an entry in `manager`'s transaction (so it exists only if that transaction commits),
 * naming the actor and request of the current context; never pass secrets in `changes`.
 */
export async function recordAuditEvent(manager: EntityManager, event: AuditEvent): Promise<void> {
  const app = String((manager.connection.options as { applicationName?: string }).applicationName ?? 'app');
  const context = auditContextNow(app);
  await manager.query(
    `INSERT INTO audit_entries
       (app, action, actor_type, actor_id, actor_name, resource_type, resource_id, request_id, cause, changes)
     VALUES ($1, $2, $3, $4, $5, $6, $7, $8, $9, $10)`,
    [
      app,
      event.action,
      context.actor_type,
      context.actor_id,
      context.actor_name,
      event.resource.type,
      event.resource.id,
      context.request_id,
      context.cause,
      JSON.stringify(event.changes ?? {}),
    ],
  );
}
