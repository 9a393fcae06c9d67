import type { MigrationInterface, QueryRunner } from 'typeorm';

/**
 * Fills empty revenue_days and revenue_months from the CONFIRMED bookings' lines. Exported for
 * bench/inventory.mjs, which seeds its million lines with the line trigger off and then runs
 * this, as the migration does.
 */
export const REVENUE_DAYS_BACKFILL = `
  INSERT INTO revenue_days (day, platform, category, rate_card, booked, lines)
  SELECT (b.created_at AT TIME ZONE 'UTC')::date, l.platform, l.category,
         sum(l.rate_card_amount), sum(l.booked_amount), count(*)
    FROM booking_lines l
    JOIN bookings b ON b.id = l.order_id
   WHERE b.status = 'CONFIRMED'
   GROUP BY 1, 2, 3;
  INSERT INTO revenue_months (month, platform, category, rate_card, booked, lines)
  SELECT date_trunc('month', day::timestamp)::date, platform, category,
         sum(rate_card), sum(booked), sum(lines)
    FROM revenue_days
   GROUP BY 1, 2, 3`;

/** One of the two rollups: its table, its key column, and that key computed from a UTC day. */
interface Rollup {
  table: 'revenue_days' | 'revenue_months';
  key: 'day' | 'month';
  of: (day: string) => string;
}

const DAYS: Rollup = { table: 'revenue_days', key: 'day', of: (day) => day };
const MONTHS: Rollup = {
  table: 'revenue_months',
  key: 'month',
  of: (day) => `date_trunc('month', ${day}::timestamp)::date`,
};

function rollupTable(r: Rollup, ...constraints: string[]): string {
  return `
      CREATE TABLE ${r.table} (
        ${r.key} date NOT NULL,
        platform text NOT NULL,
        category text NOT NULL,
        rate_card numeric NOT NULL,
        booked numeric NOT NULL,
        lines int NOT NULL,
        PRIMARY KEY (${r.key}, platform, category)${constraints.map((c) => `,\n        ${c}`).join('')}
      )`;
}

/** The tail of an INSERT into a rollup that adds to the row already there. */
function addToRow(r: Rollup): string {
  return `ON CONFLICT (${r.key}, platform, category) DO UPDATE
            SET rate_card = ${r.table}.rate_card + EXCLUDED.rate_card,
                booked = ${r.table}.booked + EXCLUDED.booked,
                lines = ${r.table}.lines + EXCLUDED.lines`;
}

/** revenue_days_line(): the line's old figures out of and its new ones into one rollup, by key. */
function lineChange(r: Rollup): string {
  return `
        FOR change IN
          SELECT ${r.of('c.day')} AS ${r.key}, c.platform, c.category,
                 sum(c.rate) AS rate, sum(c.booked) AS booked, sum(c.n)::int AS n
            FROM (VALUES (old_day, o_platform, o_category, -o_rate, -o_booked, -1),
                         (new_day, n_platform, n_category, n_rate, n_booked, 1))
                 AS c (day, platform, category, rate, booked, n)
           WHERE c.day IS NOT NULL
           GROUP BY 1, 2, 3
           ORDER BY 1, 2, 3
        LOOP
          CONTINUE WHEN change.rate = 0 AND change.booked = 0 AND change.n = 0;
          INSERT INTO ${r.table} (${r.key}, platform, category, rate_card, booked, lines)
          VALUES (change.${r.key}, change.platform, change.category, change.rate, change.booked, change.n)
          ${addToRow(r)};
        END LOOP;`;
}

/** revenue_days_booking(): all the booking's lines out of its old day and into its new one. */
function bookingChange(r: Rollup): string {
  return `
          INSERT INTO ${r.table} (${r.key}, platform, category, rate_card, booked, lines)
          SELECT ${r.of('c.day')}, l.platform, l.category, sum(c.sign * l.rate_card_amount),
                 sum(c.sign * l.booked_amount), sum(c.sign)::int
            FROM booking_lines l
           CROSS JOIN (VALUES (old_day, -1), (new_day, 1)) AS c (day, sign)
           WHERE l.order_id = OLD.id AND c.day IS NOT NULL
           GROUP BY 1, 2, 3
           ORDER BY 1, 2, 3
          ${addToRow(r)};`;
}

/**
 * Per-(UTC day of the order's created_at, platform, category) and per-(month, platform, category)
 * rollups of the lines of CONFIRMED bookings, kept exact by triggers on bookings and booking_lines
 * in the writer's own transaction, so the revenue summary reads the whole months of
 * its range from revenue_months (3 platforms x a few categories a month) and only the partial
 * months at its ends from revenue_days, instead of every line.
 * Sums are numeric, so they are exact; `lines` counts the lines behind a row, so a group whose
 * lines all left (a cancellation) is known to be empty rather than "zero revenue".
 */
export class CreateRevenueDays1764100000001 implements MigrationInterface {
  name = 'CreateRevenueDays1764100000001';

  async up(q: QueryRunner): Promise<void> {
    await q.query(rollupTable(DAYS));
    await q.query(
      rollupTable(MONTHS, 'CONSTRAINT revenue_months_first_day CHECK (extract(day FROM month) = 1)'),
    );

    // A line counts while its booking is CONFIRMED. Locking the booking FOR SHARE makes a line
    // write and a status change of the same booking take turns: whichever comes second sees the
    // other's committed result (the status trigger re-reads the lines in a fresh snapshot; the
    // line trigger re-reads the status), so no line is counted twice or missed. Keys are upserted
    // in (day, platform, category) order, the same order every writer uses, so writers queue on
    // shared rows instead of deadlocking: every day row first, then every month row. A line whose booking is being deleted (cascade) finds
    // no booking: the booking's own BEFORE DELETE trigger has already taken its lines out.
    await q.query(`
      CREATE FUNCTION revenue_days_line() RETURNS trigger
      LANGUAGE plpgsql AS $$
      DECLARE
        old_day date;
        new_day date;
        o_platform text;
        o_category text;
        o_rate numeric;
        o_booked numeric;
        n_platform text;
        n_category text;
        n_rate numeric;
        n_booked numeric;
        change record;
      BEGIN
        IF TG_OP IN ('UPDATE', 'DELETE') THEN
          SELECT (b.created_at AT TIME ZONE 'UTC')::date INTO old_day
            FROM bookings b WHERE b.id = OLD.order_id AND b.status = 'CONFIRMED' FOR SHARE;
          o_platform := OLD.platform;
          o_category := OLD.category;
          o_rate := OLD.rate_card_amount;
          o_booked := OLD.booked_amount;
        END IF;
        IF TG_OP IN ('UPDATE', 'INSERT') THEN
          SELECT (b.created_at AT TIME ZONE 'UTC')::date INTO new_day
            FROM bookings b WHERE b.id = NEW.order_id AND b.status = 'CONFIRMED' FOR SHARE;
          n_platform := NEW.platform;
          n_category := NEW.category;
          n_rate := NEW.rate_card_amount;
          n_booked := NEW.booked_amount;
        END IF;
        ${lineChange(DAYS)}
        ${lineChange(MONTHS)}
        RETURN NULL;
      END
      $$`);
    await q.query(`
      CREATE TRIGGER booking_lines_revenue_days
      AFTER INSERT OR DELETE
         OR UPDATE OF order_id, platform, category, rate_card_amount, booked_amount ON booking_lines
      FOR EACH ROW EXECUTE FUNCTION revenue_days_line()`);

    // A booking entering CONFIRMED adds all its lines, leaving it takes them out (one sorted
    // INSERT ... SELECT); a CONFIRMED booking deleted takes its lines out before the cascade.
    await q.query(`
      CREATE FUNCTION revenue_days_booking() RETURNS trigger
      LANGUAGE plpgsql AS $$
      DECLARE
        old_day date;
        new_day date;
      BEGIN
        IF TG_OP = 'TRUNCATE' THEN
          DELETE FROM revenue_days;
          DELETE FROM revenue_months;
          RETURN NULL;
        END IF;
        IF OLD.status = 'CONFIRMED' THEN
          old_day := (OLD.created_at AT TIME ZONE 'UTC')::date;
        END IF;
        IF TG_OP = 'UPDATE' AND NEW.status = 'CONFIRMED' THEN
          new_day := (NEW.created_at AT TIME ZONE 'UTC')::date;
        END IF;
        IF old_day IS DISTINCT FROM new_day THEN
          ${bookingChange(DAYS)}
          ${bookingChange(MONTHS)}
        END IF;
        IF TG_OP = 'DELETE' THEN
          RETURN OLD;
        END IF;
        RETURN NULL;
      END
      $$`);
    await q.query(`
      CREATE TRIGGER bookings_revenue_days
      AFTER UPDATE OF status, created_at ON bookings
      FOR EACH ROW EXECUTE FUNCTION revenue_days_booking()`);
    await q.query(`
      CREATE TRIGGER bookings_revenue_days_delete
      BEFORE DELETE ON bookings
      FOR EACH ROW EXECUTE FUNCTION revenue_days_booking()`);
    await q.query(`
      CREATE TRIGGER bookings_revenue_days_truncate
      AFTER TRUNCATE ON bookings
      FOR EACH STATEMENT EXECUTE FUNCTION revenue_days_booking()`);
    // TRUNCATE fires no row trigger: emptying either table empties the rollup.
    await q.query(`
      CREATE TRIGGER booking_lines_revenue_days_truncate
      AFTER TRUNCATE ON booking_lines
      FOR EACH STATEMENT EXECUTE FUNCTION revenue_days_booking()`);
    await q.query(REVENUE_DAYS_BACKFILL);
  }

  async down(q: QueryRunner): Promise<void> {
    await q.query(`DROP TRIGGER booking_lines_revenue_days_truncate ON booking_lines`);
    await q.query(`DROP TRIGGER bookings_revenue_days_truncate ON bookings`);
    await q.query(`DROP TRIGGER bookings_revenue_days_delete ON bookings`);
    await q.query(`DROP TRIGGER bookings_revenue_days ON bookings`);
    await q.query(`DROP TRIGGER booking_lines_revenue_days ON booking_lines`);
    await q.query(`DROP FUNCTION revenue_days_booking()`);
    await q.query(`DROP FUNCTION revenue_days_line()`);
    await q.query(`DROP TABLE revenue_months`);
    await q.query(`DROP TABLE revenue_days`);
  }
}
