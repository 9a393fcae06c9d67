import type { MigrationInterface, QueryRunner } from 'typeorm';
import { FIRST_AUDIT_RECORD_BODY, recordedValueSql } from './recording';

/**
 * `audit_record()`, the row trigger of every audited table, doing less per row (same entries:
 * only the changed fields as `[before, after]`, redaction, texts over 1 KiB as their SHA-256,
 * context, actor, cause). Measured on assignment's claim (backend CPU per UPDATE, the trigger
 * on identical copies of `tasks`, interleaved; docs/benchmarks.md#audit-trail):
 *
 * - The changed fields are gathered as they are, `[old -> k, new -> k]`. The recorded-value
 *   expression (redaction, the 1 KiB rule) is large, and the query carrying it is set up again at
 *   every firing; it now runs, in a second query, only when it can change something: when a
 *   changed field is redacted (`diff ?| redacted`), or when the changes' JSON text is over 1 KiB
 *   (otherwise no value in it can be).
 * - The trigger's arguments that are not always needed (the verbs, the id column) are read where
 *   they are used, not parsed at every call.
 *
 * The function is replaced in place: every app's triggers (`auditTrigger`) keep their arguments.
 */
export class AuditRecordLean1765100000100 implements MigrationInterface {
  name = 'AuditRecordLean1765100000100';

  async up(q: QueryRunner): Promise<void> {
    await q.query(`
      CREATE OR REPLACE FUNCTION audit_record() RETURNS trigger LANGUAGE plpgsql AS $$
      DECLARE
        app text := TG_ARGV[0];
        rtype text := TG_ARGV[1];
        redacted text[] := TG_ARGV[2]::text[];
        ignored text[] := TG_ARGV[3]::text[];
        ctx jsonb := COALESCE(NULLIF(current_setting('audit.context', true), '')::jsonb, '{}'::jsonb);
        old_row jsonb;
        new_row jsonb;
        diff jsonb;
      BEGIN
        IF TG_OP <> 'INSERT' THEN old_row := to_jsonb(OLD); END IF;
        IF TG_OP <> 'DELETE' THEN new_row := to_jsonb(NEW); END IF;
        SELECT jsonb_object_agg(k, jsonb_build_array(ov, nv))
          INTO diff
          FROM (SELECT k, old_row -> k AS ov, new_row -> k AS nv
                  FROM jsonb_object_keys(COALESCE(new_row, old_row)) AS k) AS fields
         WHERE NOT (k = ANY (ignored))
           AND (TG_OP <> 'UPDATE' OR ov IS DISTINCT FROM nv);
        IF diff IS NULL THEN
          -- An update of ignored columns only (a timestamp, a version) is no change.
          IF TG_OP = 'UPDATE' THEN RETURN NULL; END IF;
          diff := '{}';
        ELSIF diff ?| redacted OR octet_length(diff::text) > 1024 THEN
          SELECT jsonb_object_agg(c.key, jsonb_build_array(
                   ${recordedValueSql(`(c.value -> 0)`, 'c.key')},
                   ${recordedValueSql(`(c.value -> 1)`, 'c.key')}))
            INTO diff
            FROM jsonb_each(diff) AS c;
        END IF;
        INSERT INTO audit_entries
          (app, action, actor_type, actor_id, actor_name, resource_type, resource_id, request_id, cause, changes)
        VALUES (
          app,
          COALESCE(ctx -> 'actions' ->> rtype, rtype || '.' || (TG_ARGV[5]::jsonb ->> TG_OP)),
          COALESCE(ctx ->> 'actor_type', 'system'),
          COALESCE(ctx ->> 'actor_id', app),
          ctx ->> 'actor_name',
          rtype,
          COALESCE(new_row, old_row) ->> TG_ARGV[4],
          ctx ->> 'request_id',
          ctx ->> 'cause',
          diff);
        RETURN NULL;
      END $$`);
  }

  async down(q: QueryRunner): Promise<void> {
    await q.query(`
      CREATE OR REPLACE FUNCTION audit_record() RETURNS trigger LANGUAGE plpgsql AS $$${FIRST_AUDIT_RECORD_BODY}$$`);
  }
}
