import type { MigrationInterface, QueryRunner } from 'typeorm';

/** Inbox entries carry a priority, as tasks do (docs/api/contract.md §7.3); existing ones are MEDIUM. */
export class NotificationPriority1764800000021 implements MigrationInterface {
  name = 'NotificationPriority1764800000021';

  async up(q: QueryRunner): Promise<void> {
    await q.query(`
      ALTER TABLE notifications ADD COLUMN priority text NOT NULL DEFAULT 'MEDIUM'
        CONSTRAINT notifications_priority_check CHECK (priority IN ('LOW', 'MEDIUM', 'HIGH', 'URGENT'))`);
  }

  async down(q: QueryRunner): Promise<void> {
    await q.query(`ALTER TABLE notifications DROP COLUMN priority`);
  }
}
