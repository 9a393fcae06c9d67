import type { MigrationInterface, QueryRunner } from 'typeorm';

/**
 * A login attempt claims its account's row for as long as it waits and is checked
 * (`in_flight_until`, a lease that a crashed replica cannot hold for ever); a second attempt
 * meanwhile is answered 429 without its password being checked (docs/api/contract.md §1). The row exists
 * from the first attempt, so `last_failed_at` is null until a failure.
 */
export class LoginInFlight1764000000004 implements MigrationInterface {
  name = 'LoginInFlight1764000000004';

  async up(q: QueryRunner): Promise<void> {
    await q.query(`ALTER TABLE login_failures ALTER COLUMN failures SET DEFAULT 0`);
    await q.query(`ALTER TABLE login_failures ALTER COLUMN last_failed_at DROP NOT NULL`);
    await q.query(`ALTER TABLE login_failures ADD COLUMN in_flight_until timestamptz(3)`);
  }

  async down(q: QueryRunner): Promise<void> {
    await q.query(`DELETE FROM login_failures WHERE last_failed_at IS NULL`);
    await q.query(`ALTER TABLE login_failures DROP COLUMN in_flight_until`);
    await q.query(`ALTER TABLE login_failures ALTER COLUMN last_failed_at SET NOT NULL`);
    await q.query(`ALTER TABLE login_failures ALTER COLUMN failures DROP DEFAULT`);
  }
}
