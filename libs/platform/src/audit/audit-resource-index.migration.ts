import type { MigrationInterface, QueryRunner } from 'typeorm';

/**
 * One index for a resource's entries instead of two: `(resource_id, seq)` answers `?resource_id=`
 * with or without `resource_type` (a resource's few entries, the type checked on each), so
 * `(resource_type, resource_id, seq)` bought no read and cost every entry one more index entry
 * when the sealer gave it its seq (docs/benchmarks.md#audit-trail).
 */
export class AuditOneResourceIndex1765200000000 implements MigrationInterface {
  name = 'AuditOneResourceIndex1765200000000';

  async up(q: QueryRunner): Promise<void> {
    await q.query(`DROP INDEX audit_entries_resource_idx`);
  }

  async down(q: QueryRunner): Promise<void> {
    await q.query(
      `CREATE INDEX audit_entries_resource_idx ON audit_entries (resource_type, resource_id, seq) WHERE seq IS NOT NULL`,
    );
  }
}
