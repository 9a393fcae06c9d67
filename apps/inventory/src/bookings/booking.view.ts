import type { BookingLineView, BookingStatus, BookingSummaryView, LineAssetView } from '@media/contracts';

/** Columns of a booking as read by BOOKING_COLUMNS. */
export interface BookingRow {
  id: string;
  reference: string;
  client_name: string;
  agency: string | null;
  status: BookingStatus;
  currency: string;
  created_by: string;
  created_at: Date;
  updated_at: Date;
  rate_card_total: string;
  booked_total: string;
}

/** Columns of a line as read by LINE_COLUMNS (dates as text: pg would make them local Dates). */
export type LineRow = Omit<BookingLineView, 'assets'> & { order_id: string };

export interface AssetRow {
  id: string;
  line_id: string;
  name: string;
  document_id: string | null;
  notes: string | null;
  created_at: Date;
  updated_at: Date;
}

export const LINE_COLUMNS = `l.id, l.order_id, l.platform, l.category, l.channel,
  to_char(l.start_date, 'YYYY-MM-DD') AS start_date, to_char(l.end_date, 'YYYY-MM-DD') AS end_date,
  l.spots, l.rate_card_amount::text AS rate_card_amount, l.booked_amount::text AS booked_amount`;

export const ASSET_COLUMNS = `a.id, a.line_id, a.name, a.document_id, a.notes, a.created_at, a.updated_at`;

export function toAssetView(row: AssetRow): LineAssetView {
  return {
    id: row.id,
    line_id: row.line_id,
    name: row.name,
    document_id: row.document_id,
    notes: row.notes,
    created_at: row.created_at.toISOString(),
    updated_at: row.updated_at.toISOString(),
  };
}

/** A line with its assets (those of `assets` whose line_id is the line's, in their order). */
export function toLineView(row: LineRow, assets: AssetRow[]): BookingLineView {
  return {
    id: row.id,
    platform: row.platform,
    category: row.category,
    channel: row.channel,
    start_date: row.start_date,
    end_date: row.end_date,
    spots: row.spots,
    rate_card_amount: row.rate_card_amount,
    booked_amount: row.booked_amount,
    assets: assets.map(toAssetView),
  };
}

/** Groups assets by line, keeping their order. */
export function assetsByLine(assets: AssetRow[]): Map<string, AssetRow[]> {
  const byLine = new Map<string, AssetRow[]>();
  for (const asset of assets) {
    const list = byLine.get(asset.line_id) ?? [];
    list.push(asset);
    byLine.set(asset.line_id, list);
  }
  return byLine;
}

export function toSummaryView(row: BookingRow): BookingSummaryView {
  return {
    id: row.id,
    reference: row.reference,
    client_name: row.client_name,
    agency: row.agency,
    status: row.status,
    currency: row.currency,
    created_by: row.created_by,
    created_at: row.created_at.toISOString(),
    updated_at: row.updated_at.toISOString(),
    totals: { rate_card_amount: row.rate_card_total, booked_amount: row.booked_total },
  };
}
