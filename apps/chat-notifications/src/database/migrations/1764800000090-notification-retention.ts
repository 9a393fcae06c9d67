import type { MigrationInterface, QueryRunner } from 'typeorm';

/** The retention job deletes inbox entries by age: an index on it keeps each batch cheap. */
export class NotificationRetention1764800000090 implements MigrationInterface {
  name = 'NotificationRetention1764800000090';

  async up(q: QueryRunner): Promise<void> {
    await q.query(`CREATE INDEX notifications_created_idx ON notifications (created_at)`);
  }

  async down(q: QueryRunner): Promise<void> {
    await q.query(`DROP INDEX notifications_created_idx`);
  }
}
