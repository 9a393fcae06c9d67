import type { MigrationInterface, QueryRunner } from 'typeorm';

/**
 * Each refresh token carries the time its session (family) began, so a session has an absolute
 * lifetime (`REFRESH_MAX_AGE`) however often it is refreshed. Existing families start at their
 * oldest token.
 */
export class RefreshSessionStart1764000000005 implements MigrationInterface {
  name = 'RefreshSessionStart1764000000005';

  async up(q: QueryRunner): Promise<void> {
    await q.query(`ALTER TABLE refresh_tokens ADD COLUMN session_started_at timestamptz(3)`);
    await q.query(`
      UPDATE refresh_tokens t SET session_started_at = f.started
        FROM (SELECT family_id, min(created_at) AS started FROM refresh_tokens GROUP BY family_id) f
       WHERE f.family_id = t.family_id`);
    await q.query(`ALTER TABLE refresh_tokens ALTER COLUMN session_started_at SET NOT NULL`);
  }

  async down(q: QueryRunner): Promise<void> {
    await q.query(`ALTER TABLE refresh_tokens DROP COLUMN session_started_at`);
  }
}
