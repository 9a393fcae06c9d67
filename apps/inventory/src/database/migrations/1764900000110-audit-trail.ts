import { auditTrigger, dropAuditTrigger, type AuditedTable } from '@media/platform';
import type { MigrationInterface, QueryRunner } from 'typeorm';

/** What inventory records in its audit trail (CONTRACT §8.1): one entry per changed row of these tables. */
const AUDITED: Omit<AuditedTable, 'app'>[] = [
  { table: 'bookings', type: 'booking', ignored: ['updated_at'] },
  { table: 'booking_lines', type: 'booking.line', ignored: ['updated_at'] },
  { table: 'line_assets', type: 'booking.line.asset', ignored: ['updated_at'] },
];

/** Installs the audit row trigger on each audited table (the recording itself is the platform's). */
export class AuditTrailInventory1764900000110 implements MigrationInterface {
  name = 'AuditTrailInventory1764900000110';

  async up(q: QueryRunner): Promise<void> {
    for (const table of AUDITED) await q.query(auditTrigger({ app: 'inventory', ...table }));
  }

  async down(q: QueryRunner): Promise<void> {
    for (const { table } of AUDITED) await q.query(dropAuditTrigger(table));
  }
}
