import { auditTrigger, dropAuditTrigger, type AuditedTable } from '@media/platform';
import type { MigrationInterface, QueryRunner } from 'typeorm';

/** What payment records in its audit trail (CONTRACT §8.1): one entry per changed row of these tables. */
const AUDITED: Omit<AuditedTable, 'app'>[] = [
  { table: 'commission_plans', type: 'commission_plan', ignored: ['updated_at'] },
  { table: 'commission_tiers', type: 'commission_plan.tier', idColumn: 'plan_id' },
  { table: 'commission_targets', type: 'commission_target', ignored: ['updated_at'] },
  { table: 'collections', type: 'collection', ignored: ['updated_at'] },
];

/** Installs the audit row trigger on each audited table (the recording itself is the platform's). */
export class AuditTrailPayment1764900000110 implements MigrationInterface {
  name = 'AuditTrailPayment1764900000110';

  async up(q: QueryRunner): Promise<void> {
    for (const table of AUDITED) await q.query(auditTrigger({ app: 'payment', ...table }));
  }

  async down(q: QueryRunner): Promise<void> {
    for (const { table } of AUDITED) await q.query(dropAuditTrigger(table));
  }
}
