import type { MigrationInterface, QueryRunner } from 'typeorm';

/** The checkpoints' guard as `CreateAuditRecording` installed it (what `down` puts back). */
const CHECKPOINTS_GUARD_BEFORE = `
  CREATE OR REPLACE FUNCTION audit_checkpoints_guard() RETURNS trigger LANGUAGE plpgsql AS $$
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
  END $$`;

/**
 * Retention may delete only a prefix of the chain that ends at a kept checkpoint, so the rest
 * verifies from that checkpoint. The row guard lets an entry go, in a transaction that sets
 * `audit.retention`, when some old checkpoint is at or after it; that alone let a pruning
 * transaction delete any such row (a gap in the middle) or a prefix ending between checkpoints
 * (a start no checkpoint vouches for). Now, after each DELETE statement on `audit_entries`
 * (its deleted rows as a transition table): no entry below the highest seq it deleted may
 * remain, and a checkpoint older than the retention must sit at exactly that seq. A checkpoint
 * may go only once no entry at or below it is left (and, as before, a later old one is kept).
 */
export class AuditRetentionPrefix1765100000200 implements MigrationInterface {
  name = 'AuditRetentionPrefix1765100000200';

  async up(q: QueryRunner): Promise<void> {
    await q.query(`
      CREATE FUNCTION audit_entries_prefix_guard() RETURNS trigger LANGUAGE plpgsql AS $$
      DECLARE
        last bigint;
        keep interval := NULLIF(current_setting('audit.retention', true), '')::interval;
      BEGIN
        SELECT max(seq) INTO last FROM deleted_entries;
        IF last IS NULL THEN RETURN NULL; END IF;
        IF EXISTS (SELECT 1 FROM audit_entries WHERE seq < last) THEN
          RAISE EXCEPTION 'audit entries are append-only: DELETE refused (entries below seq % would remain: a gap)', last
            USING ERRCODE = 'insufficient_privilege';
        END IF;
        IF keep IS NULL OR NOT EXISTS (
             SELECT 1 FROM audit_checkpoints WHERE seq = last AND at < now() - keep) THEN
          RAISE EXCEPTION 'audit entries are append-only: DELETE refused (no kept checkpoint at seq %)', last
            USING ERRCODE = 'insufficient_privilege';
        END IF;
        RETURN NULL;
      END $$`);
    await q.query(`CREATE TRIGGER audit_entries_prefix_only AFTER DELETE ON audit_entries
      REFERENCING OLD TABLE AS deleted_entries
      FOR EACH STATEMENT EXECUTE FUNCTION audit_entries_prefix_guard()`);
    await q.query(`
      CREATE OR REPLACE FUNCTION audit_checkpoints_guard() RETURNS trigger LANGUAGE plpgsql AS $$
      DECLARE
        keep interval;
      BEGIN
        IF TG_OP = 'DELETE' THEN
          keep := NULLIF(current_setting('audit.retention', true), '')::interval;
          IF keep IS NOT NULL
             AND EXISTS (SELECT 1 FROM audit_checkpoints c WHERE c.seq > OLD.seq AND c.at < now() - keep)
             AND NOT EXISTS (SELECT 1 FROM audit_entries e WHERE e.seq <= OLD.seq) THEN
            RETURN OLD;
          END IF;
        END IF;
        RAISE EXCEPTION 'audit checkpoints are append-only: % refused', TG_OP USING ERRCODE = 'insufficient_privilege';
      END $$`);
  }

  async down(q: QueryRunner): Promise<void> {
    await q.query(CHECKPOINTS_GUARD_BEFORE);
    await q.query(`DROP TRIGGER audit_entries_prefix_only ON audit_entries`);
    await q.query(`DROP FUNCTION audit_entries_prefix_guard()`);
  }
}
