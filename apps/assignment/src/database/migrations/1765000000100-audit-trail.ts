import { auditTrigger, dropAuditTrigger, type AuditedTable } from '@media/platform';
import type { MigrationInterface, QueryRunner } from 'typeorm';

/** What assignment records in its audit trail (CONTRACT §8.1): one entry per changed row of these tables. */
const AUDITED: Omit<AuditedTable, 'app'>[] = [{ table: 'tasks', type: 'task', ignored: ['updated_at'] }];

/**
 * Installs the audit row trigger on each audited table (the recording itself is the platform's).
 * Timestamped after the app's own tables (1765000000000...), which it needs.
 */
export class AuditTrailAssignment1765000000100 implements MigrationInterface {
  name = 'AuditTrailAssignment1765000000100';

  async up(q: QueryRunner): Promise<void> {
    for (const table of AUDITED) await q.query(auditTrigger({ app: 'assignment', ...table }));
  }

  async down(q: QueryRunner): Promise<void> {
    for (const { table } of AUDITED) await q.query(dropAuditTrigger(table));
  }
}
