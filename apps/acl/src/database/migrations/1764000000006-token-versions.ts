import type { MigrationInterface, QueryRunner } from 'typeorm';

/**
 * Each user's token version (docs/api/acl.md, revocation): access tokens carry it as `ver`, and
 * a token below the user's current one is refused everywhere. `token_version_raised_at` lets an
 * app that starts (or missed events) ask for the versions raised since a time.
 */
export class TokenVersions1764000000006 implements MigrationInterface {
  name = 'TokenVersions1764000000006';

  async up(q: QueryRunner): Promise<void> {
    await q.query(`ALTER TABLE users ADD COLUMN token_version integer NOT NULL DEFAULT 0`);
    await q.query(`ALTER TABLE users ADD COLUMN token_version_raised_at timestamptz(3)`);
    await q.query(
      `CREATE INDEX users_token_version_raised_at ON users (token_version_raised_at) WHERE token_version > 0`,
    );
  }

  async down(q: QueryRunner): Promise<void> {
    await q.query(`DROP INDEX users_token_version_raised_at`);
    await q.query(`ALTER TABLE users DROP COLUMN token_version_raised_at`);
    await q.query(`ALTER TABLE users DROP COLUMN token_version`);
  }
}
