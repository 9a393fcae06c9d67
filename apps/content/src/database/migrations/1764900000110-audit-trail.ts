import { auditTrigger, dropAuditTrigger, type AuditedTable } from '@media/platform';
import type { MigrationInterface, QueryRunner } from 'typeorm';

/** What content records in its audit trail (CONTRACT §8.1): one entry per changed row of these tables. */
const AUDITED: Omit<AuditedTable, 'app'>[] = [
  { table: 'broadcast_schedules', type: 'schedule', ignored: ['updated_at', 'revision'] },
  { table: 'slots', type: 'slot', ignored: ['updated_at'] },
  {
    table: 'slot_assets',
    type: 'slot.asset',
    idColumn: 'slot_id',
    verbs: { INSERT: 'attached', DELETE: 'detached' },
  },
  { table: 'story_categories', type: 'story_category', ignored: ['updated_at'] },
];

/** Installs the audit row trigger on each audited table (the recording itself is the platform's). */
export class AuditTrailContent1764900000110 implements MigrationInterface {
  name = 'AuditTrailContent1764900000110';

  async up(q: QueryRunner): Promise<void> {
    for (const table of AUDITED) await q.query(auditTrigger({ app: 'content', ...table }));
  }

  async down(q: QueryRunner): Promise<void> {
    for (const { table } of AUDITED) await q.query(dropAuditTrigger(table));
  }
}
