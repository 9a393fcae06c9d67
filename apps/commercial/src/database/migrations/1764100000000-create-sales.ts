import type { MigrationInterface, QueryRunner } from 'typeorm';

/**
 * Fills an empty client_won_totals from deals. Exported for bench/commercial-top-clients.mjs,
 * which seeds its million deals with the trigger off and then runs this, as the migration does.
 */
export const CLIENT_WON_TOTALS_BACKFILL = `
  INSERT INTO client_won_totals (grain, period, client_id, deals, revenue)
  SELECT g.grain, g.period, d.client_id, count(*), sum(d.contracted_revenue)
    FROM deals d
   CROSS JOIN LATERAL (VALUES ('d', d.contract_date),
                              ('m', date_trunc('month', d.contract_date)::date),
                              ('q', date_trunc('quarter', d.contract_date)::date),
                              ('y', date_trunc('year', d.contract_date)::date)) AS g (grain, period)
   WHERE d.status = 'WON'
   GROUP BY 1, 2, 3`;

/**
 * Clients and deals, and client_won_totals: the WON deals' count and revenue per client
 * per day, month, quarter and year, kept exact by a trigger on deals, so that top clients
 * (top clients) reads the first rows of one period by revenue instead of the deals of a year.
 */
export class CreateSales1764100000000 implements MigrationInterface {
  name = 'CreateSales1764100000000';

  async up(q: QueryRunner): Promise<void> {
    await q.query(`
      CREATE TABLE clients (
        id uuid PRIMARY KEY DEFAULT gen_random_uuid(),
        name text COLLATE "C" NOT NULL,
        category text COLLATE "C" NOT NULL,
        created_at timestamptz(3) NOT NULL DEFAULT now(),
        updated_at timestamptz(3) NOT NULL DEFAULT now()
      )`);
    // Names are unique as written; the index also serves the list's (name, id) keyset order.
    await q.query(`CREATE UNIQUE INDEX clients_name_key ON clients (name)`);

    await q.query(`
      CREATE TABLE deals (
        id uuid PRIMARY KEY DEFAULT gen_random_uuid(),
        client_id uuid NOT NULL REFERENCES clients (id),
        contracted_revenue numeric(17, 2) NOT NULL,
        contract_date date NOT NULL,
        status text NOT NULL DEFAULT 'WON',
        created_at timestamptz(3) NOT NULL DEFAULT now(),
        updated_at timestamptz(3) NOT NULL DEFAULT now(),
        CONSTRAINT deals_status_check CHECK (status IN ('WON', 'LOST', 'PENDING')),
        CONSTRAINT deals_revenue_check CHECK (contracted_revenue >= 0)
      )`);
    // The list's keyset order (contract_date desc, id desc), whole or per client.
    await q.query(`CREATE INDEX deals_contract_date_idx ON deals (contract_date, id)`);
    await q.query(`CREATE INDEX deals_client_idx ON deals (client_id, contract_date, id)`);

    // grain 'd': period is the day; 'm', 'q', 'y': the first day of the month, quarter, year.
    // A row may fall back to zero deals after an update or delete; readers skip those.
    await q.query(`
      CREATE TABLE client_won_totals (
        grain "char" NOT NULL,
        period date NOT NULL,
        client_id uuid NOT NULL,
        deals int NOT NULL,
        revenue numeric NOT NULL,
        PRIMARY KEY (grain, period, client_id),
        CONSTRAINT client_won_totals_grain_check CHECK (grain IN ('d', 'm', 'q', 'y'))
      )`);
    // Top clients walks one period's rows by revenue and stops after the limit (index only).
    await q.query(`
      CREATE INDEX client_won_totals_rank_idx
      ON client_won_totals (grain, period, revenue DESC) INCLUDE (client_id, deals)`);
    // Row-level, in the writer's own transaction, so a rollback takes its totals with it. The
    // upserts are atomic under READ COMMITTED: concurrent deals of one client queue briefly on
    // its rows and none is lost. Each write touches its rows in (grain, period, client) order,
    // so two writers cannot deadlock.
    await q.query(`
      CREATE FUNCTION client_won_totals_count() RETURNS trigger
      LANGUAGE plpgsql AS $$
      DECLARE
        o_client uuid;
        o_day date;
        o_revenue numeric;
        n_client uuid;
        n_day date;
        n_revenue numeric;
        change record;
      BEGIN
        IF TG_OP = 'TRUNCATE' THEN
          DELETE FROM client_won_totals;
          RETURN NULL;
        END IF;
        IF TG_OP IN ('UPDATE', 'DELETE') AND OLD.status = 'WON' THEN
          o_client := OLD.client_id;
          o_day := OLD.contract_date;
          o_revenue := OLD.contracted_revenue;
        END IF;
        IF TG_OP IN ('UPDATE', 'INSERT') AND NEW.status = 'WON' THEN
          n_client := NEW.client_id;
          n_day := NEW.contract_date;
          n_revenue := NEW.contracted_revenue;
        END IF;
        IF o_client IS NOT DISTINCT FROM n_client AND o_day IS NOT DISTINCT FROM n_day
           AND o_revenue IS NOT DISTINCT FROM n_revenue THEN
          RETURN NULL;
        END IF;
        FOR change IN
          SELECT g.grain, g.period, m.client_id, sum(m.deals)::int AS deals, sum(m.revenue) AS revenue
            FROM (VALUES (o_client, o_day, -1, -o_revenue), (n_client, n_day, 1, n_revenue))
                 AS m (client_id, day, deals, revenue)
           CROSS JOIN LATERAL (VALUES ('d'::"char", m.day),
                                      ('m'::"char", date_trunc('month', m.day)::date),
                                      ('q'::"char", date_trunc('quarter', m.day)::date),
                                      ('y'::"char", date_trunc('year', m.day)::date)) AS g (grain, period)
           WHERE m.client_id IS NOT NULL
           GROUP BY 1, 2, 3
           ORDER BY 1, 2, 3
        LOOP
          INSERT INTO client_won_totals (grain, period, client_id, deals, revenue)
          VALUES (change.grain, change.period, change.client_id, change.deals, change.revenue)
          ON CONFLICT (grain, period, client_id) DO UPDATE
            SET deals = client_won_totals.deals + EXCLUDED.deals,
                revenue = client_won_totals.revenue + EXCLUDED.revenue;
        END LOOP;
        RETURN NULL;
      END
      $$`);
    await q.query(`
      CREATE TRIGGER deals_won_totals
      AFTER INSERT OR DELETE OR UPDATE OF status, client_id, contract_date, contracted_revenue ON deals
      FOR EACH ROW EXECUTE FUNCTION client_won_totals_count()`);
    await q.query(`
      CREATE TRIGGER deals_won_totals_truncate
      AFTER TRUNCATE ON deals
      FOR EACH STATEMENT EXECUTE FUNCTION client_won_totals_count()`);
    await q.query(CLIENT_WON_TOTALS_BACKFILL);
  }

  async down(q: QueryRunner): Promise<void> {
    await q.query(`DROP TRIGGER deals_won_totals_truncate ON deals`);
    await q.query(`DROP TRIGGER deals_won_totals ON deals`);
    await q.query(`DROP FUNCTION client_won_totals_count()`);
    await q.query(`DROP TABLE client_won_totals`);
    await q.query(`DROP TABLE deals`);
    await q.query(`DROP TABLE clients`);
  }
}
