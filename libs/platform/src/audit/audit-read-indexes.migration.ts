import type { MigrationInterface, QueryRunner } from 'typeorm';

/**
 * What the audit list's filters read by besides the ones the audit tables came with: a resource
 * id alone (the `(resource_type, resource_id, seq)` index needs the type first) and an action,
 * each newest first. Without them `?resource_id=` walks the whole chain backwards.
 */
export class AuditReadIndexes1764900000400 implements MigrationInterface {
  name = 'AuditReadIndexes1764900000400';

  async up(q: QueryRunner): Promise<void> {
    await q.query(`CREATE INDEX audit_entries_resource_id_idx ON audit_entries (resource_id, seq)`);
    await q.query(`CREATE INDEX audit_entries_action_idx ON audit_entries (action, seq)`);
  }

  async down(q: QueryRunner): Promise<void> {
    await q.query(`DROP INDEX audit_entries_action_idx`);
    await q.query(`DROP INDEX audit_entries_resource_id_idx`);
  }
}
