import type { MigrationInterface, QueryRunner } from 'typeorm';

/**
 * The merged copy's resource index led with `resource_type`, so `GET /acl/api/v1/audit/all?resource_id=`
 * without a type read the whole copy (a sequential scan and a sort: seconds at a million
 * entries). Led by `resource_id`, the one index answers the id alone and the id with its type (a
 * resource's few entries, the type checked on each).
 */
export class AuditCopyResourceIdIndex1765200000100 implements MigrationInterface {
  name = 'AuditCopyResourceIdIndex1765200000100';

  async up(q: QueryRunner): Promise<void> {
    await q.query(`DROP INDEX audit_all_resource_idx`);
    await q.query(`CREATE INDEX audit_all_resource_idx ON audit_all (resource_id, at, app, seq)`);
  }

  async down(q: QueryRunner): Promise<void> {
    await q.query(`DROP INDEX audit_all_resource_idx`);
    await q.query(
      `CREATE INDEX audit_all_resource_idx ON audit_all (resource_type, resource_id, at, app, seq)`,
    );
  }
}
