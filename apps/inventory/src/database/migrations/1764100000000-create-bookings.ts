import type { MigrationInterface, QueryRunner } from 'typeorm';

/** Bookings (orders), their lines and the lines' assets (docs/api/contract.md §4.12). */
export class CreateBookings1764100000000 implements MigrationInterface {
  name = 'CreateBookings1764100000000';

  async up(q: QueryRunner): Promise<void> {
    await q.query(`
      CREATE TABLE bookings (
        id uuid PRIMARY KEY DEFAULT gen_random_uuid(),
        reference text NOT NULL,
        client_name text NOT NULL,
        agency text,
        status text NOT NULL DEFAULT 'DRAFT',
        currency text NOT NULL DEFAULT 'USD',
        created_by uuid NOT NULL,
        created_at timestamptz(3) NOT NULL DEFAULT now(),
        updated_at timestamptz(3) NOT NULL DEFAULT now(),
        CONSTRAINT bookings_status_check CHECK (status IN ('DRAFT', 'CONFIRMED', 'CANCELLED')),
        CONSTRAINT bookings_currency_check CHECK (currency ~ '^[A-Z]{3}$')
      )`);
    // The unique index is what turns two concurrent creations of one reference into one 409.
    await q.query(`CREATE UNIQUE INDEX bookings_reference_key ON bookings (reference)`);
    // The keyset list (created_at desc, id desc), alone and under each equality filter.
    await q.query(`CREATE INDEX bookings_created_idx ON bookings (created_at DESC, id DESC)`);
    await q.query(`CREATE INDEX bookings_status_created_idx ON bookings (status, created_at DESC, id DESC)`);
    await q.query(
      `CREATE INDEX bookings_client_created_idx ON bookings (client_name, created_at DESC, id DESC)`,
    );

    // Amounts are the line's totals (not per spot). numeric(17,2): every amount the API accepts
    // (15 integer digits, two fraction digits) fits; sums are unbounded numeric.
    await q.query(`
      CREATE TABLE booking_lines (
        id uuid PRIMARY KEY DEFAULT gen_random_uuid(),
        seq bigint GENERATED ALWAYS AS IDENTITY,
        order_id uuid NOT NULL REFERENCES bookings (id) ON DELETE CASCADE,
        platform text NOT NULL,
        category text NOT NULL,
        channel text NOT NULL,
        start_date date NOT NULL,
        end_date date NOT NULL,
        spots int NOT NULL,
        rate_card_amount numeric(17, 2) NOT NULL,
        booked_amount numeric(17, 2) NOT NULL,
        created_at timestamptz(3) NOT NULL DEFAULT now(),
        updated_at timestamptz(3) NOT NULL DEFAULT now(),
        CONSTRAINT booking_lines_platform_check CHECK (platform IN ('TV', 'RADIO', 'DIGITAL')),
        CONSTRAINT booking_lines_dates_check CHECK (start_date <= end_date),
        CONSTRAINT booking_lines_spots_check CHECK (spots >= 1),
        CONSTRAINT booking_lines_amounts_check CHECK (rate_card_amount >= 0 AND booked_amount >= 0)
      )`);
    // Lines of an order in the order they were added (get a booking, the lines list, totals).
    await q.query(`CREATE UNIQUE INDEX booking_lines_order_seq_idx ON booking_lines (order_id, seq)`);

    await q.query(`
      CREATE TABLE line_assets (
        id uuid PRIMARY KEY DEFAULT gen_random_uuid(),
        line_id uuid NOT NULL REFERENCES booking_lines (id) ON DELETE CASCADE,
        name text NOT NULL,
        document_id uuid,
        notes text,
        created_at timestamptz(3) NOT NULL DEFAULT now(),
        updated_at timestamptz(3) NOT NULL DEFAULT now()
      )`);
    await q.query(`CREATE INDEX line_assets_line_idx ON line_assets (line_id, created_at, id)`);
    // documents.document.deleted detaches by document id.
    await q.query(
      `CREATE INDEX line_assets_document_idx ON line_assets (document_id) WHERE document_id IS NOT NULL`,
    );

    // Documents whose deletion event was applied: an attach racing the event is refused after it.
    await q.query(`
      CREATE TABLE deleted_documents (
        document_id uuid PRIMARY KEY,
        deleted_at timestamptz(3) NOT NULL DEFAULT now()
      )`);
  }

  async down(q: QueryRunner): Promise<void> {
    await q.query(`DROP TABLE deleted_documents`);
    await q.query(`DROP TABLE line_assets`);
    await q.query(`DROP TABLE booking_lines`);
    await q.query(`DROP TABLE bookings`);
  }
}
