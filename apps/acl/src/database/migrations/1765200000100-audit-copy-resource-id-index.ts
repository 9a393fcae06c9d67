import type { MigrationInterface, QueryRunner } from 'typeorm';

/**
 * The merged copy's only resource index led with `resource_type`, so `GET /acl/api/v1/audit/all?resource_id=`
 * without a type read the whole copy (a sequential scan and a sort: seconds at a million
 * entries). This one leads with `resource_id` and answers the id with its type or without (a
 * resource's few entries, the type checked on each); the type-first one stays for `?resource_type=`
 * alone (a rare type's entries, found without reading the others). Built in the migration's
 * transaction: the copy's writes wait for the build (its consumer resumes after), reads do not.
 */
export class AuditCopyResourceIdIndex1765200000100 implements MigrationInterface {
  name = 'AuditCopyResourceIdIndex1765200000100';

  async up(q: QueryRunner): Promise<void> {
    await q.query(`CREATE INDEX audit_all_resource_id_idx ON audit_all (resource_id, at, app, seq)`);
  }

  async down(q: QueryRunner): Promise<void> {
    await q.query(`DROP INDEX audit_all_resource_id_idx`);
  }
}
