import type { MigrationInterface, QueryRunner } from 'typeorm';

/**
 * Fills an empty user_join_days from users. Exported for bench/acl-growth.mjs, which seeds its
 * million users with the trigger off and then runs this, as the migration does.
 */
export const USER_JOIN_DAYS_BACKFILL = `
  INSERT INTO user_join_days (day, users)
  SELECT (date_joined AT TIME ZONE 'UTC')::date, count(*)
    FROM users
   GROUP BY 1`;

/**
 * A per-day rollup of users.date_joined (UTC calendar days), kept exact by a trigger on users, so
 * that the growth series reads a few thousand day rows instead of counting users.
 */
export class CreateUserJoinDays1764000000003 implements MigrationInterface {
  name = 'CreateUserJoinDays1764000000003';

  async up(q: QueryRunner): Promise<void> {
    // One row per UTC day on which someone joined; `users` may fall back to 0 after deletes or moves.
    await q.query(`
      CREATE TABLE user_join_days (
        day date PRIMARY KEY,
        users int NOT NULL
      )`);
    // Row-level, in the writer's own transaction: a rollback takes its counts back with it. The
    // upsert is atomic under READ COMMITTED, so concurrent joins on one day queue briefly on that
    // day's row and none is lost. A move between two days touches the earlier day first, so two
    // opposite moves cannot deadlock. Status changes do not fire it (only date_joined does).
    await q.query(`
      CREATE FUNCTION user_join_days_count() RETURNS trigger
      LANGUAGE plpgsql AS $$
      DECLARE
        old_day date;
        new_day date;
        change record;
      BEGIN
        IF TG_OP = 'TRUNCATE' THEN
          DELETE FROM user_join_days;
          RETURN NULL;
        END IF;
        IF TG_OP IN ('UPDATE', 'DELETE') THEN
          old_day := (OLD.date_joined AT TIME ZONE 'UTC')::date;
        END IF;
        IF TG_OP IN ('UPDATE', 'INSERT') THEN
          new_day := (NEW.date_joined AT TIME ZONE 'UTC')::date;
        END IF;
        IF old_day IS NOT DISTINCT FROM new_day THEN
          RETURN NULL;
        END IF;
        FOR change IN
          SELECT c.day, c.users
            FROM (VALUES (old_day, -1), (new_day, 1)) AS c (day, users)
           WHERE c.day IS NOT NULL
           ORDER BY c.day
        LOOP
          INSERT INTO user_join_days (day, users) VALUES (change.day, change.users)
          ON CONFLICT (day) DO UPDATE SET users = user_join_days.users + EXCLUDED.users;
        END LOOP;
        RETURN NULL;
      END
      $$`);
    // Created before the backfill, in the same transaction: CREATE TRIGGER locks users against
    // writes until this migration commits, so no join can fall between the backfill and the trigger.
    await q.query(`
      CREATE TRIGGER users_join_days
      AFTER INSERT OR DELETE OR UPDATE OF date_joined ON users
      FOR EACH ROW EXECUTE FUNCTION user_join_days_count()`);
    // TRUNCATE fires no row trigger: this one empties the rollup along with users.
    await q.query(`
      CREATE TRIGGER users_join_days_truncate
      AFTER TRUNCATE ON users
      FOR EACH STATEMENT EXECUTE FUNCTION user_join_days_count()`);
    await q.query(USER_JOIN_DAYS_BACKFILL);
  }

  async down(q: QueryRunner): Promise<void> {
    await q.query(`DROP TRIGGER users_join_days_truncate ON users`);
    await q.query(`DROP TRIGGER users_join_days ON users`);
    await q.query(`DROP FUNCTION user_join_days_count()`);
    await q.query(`DROP TABLE user_join_days`);
  }
}
