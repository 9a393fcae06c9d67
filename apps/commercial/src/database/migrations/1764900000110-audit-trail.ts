import { auditTrigger, dropAuditTrigger, type AuditedTable } from '@media/platform';
import type { MigrationInterface, QueryRunner } from 'typeorm';

/** What commercial records in its audit trail (CONTRACT §8.1): one entry per changed row of these tables. */
const AUDITED: Omit<AuditedTable, 'app'>[] = [
  { table: 'clients', type: 'client', ignored: ['updated_at'] },
  { table: 'deals', type: 'deal', ignored: ['updated_at'] },
];

/** Installs the audit row trigger on each audited table (the recording itself is the platform's). */
export class AuditTrailCommercial1764900000110 implements MigrationInterface {
  name = 'AuditTrailCommercial1764900000110';

  async up(q: QueryRunner): Promise<void> {
    for (const table of AUDITED) await q.query(auditTrigger({ app: 'commercial', ...table }));
  }

  async down(q: QueryRunner): Promise<void> {
    for (const { table } of AUDITED) await q.query(dropAuditTrigger(table));
  }
}
