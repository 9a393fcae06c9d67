/** Booking statuses (docs/api/contract.md §4.12). */
export const BOOKING_STATUSES = ['DRAFT', 'CONFIRMED', 'CANCELLED'] as const;
export type BookingStatus = (typeof BOOKING_STATUSES)[number];

/** Platforms of a booking line. */
export const BOOKING_PLATFORMS = ['TV', 'RADIO', 'DIGITAL'] as const;
export type BookingPlatform = (typeof BOOKING_PLATFORMS)[number];

/** An asset of a booking line. */
export interface LineAssetView {
  id: string;
  line_id: string;
  name: string;
  document_id: string | null;
  notes: string | null;
  created_at: string;
  updated_at: string;
}

/** A booking line; money as two-decimal strings (docs/api/contract.md §3). */
export interface BookingLineView {
  id: string;
  platform: BookingPlatform;
  category: string;
  channel: string;
  start_date: string;
  end_date: string;
  spots: number;
  rate_card_amount: string;
  booked_amount: string;
  assets: LineAssetView[];
}

/** Sums of a booking's lines, derived on read. */
export interface BookingTotals {
  rate_card_amount: string;
  booked_amount: string;
}

/** A booking without its lines, as the list shows it. */
export interface BookingSummaryView {
  id: string;
  reference: string;
  client_name: string;
  agency: string | null;
  status: BookingStatus;
  currency: string;
  created_by: string;
  created_at: string;
  updated_at: string;
  totals: BookingTotals;
}

/** A booking with its lines and their assets. */
export interface BookingView extends BookingSummaryView {
  lines: BookingLineView[];
}

/** Rate card against booked amounts of one group of the revenue summary. */
export interface RevenueFigures {
  rate_card: string;
  booked: string;
  erosion: string;
  /** `null` when the rate card is zero. */
  erosion_pct: string | null;
}

/** The revenue summary: totals, the monthly trend, and per platform and category. */
export interface RevenueSummaryView {
  totals: RevenueFigures;
  trend: (RevenueFigures & { month: string })[];
  breakdown: (RevenueFigures & {
    platform: BookingPlatform;
    categories: (RevenueFigures & { category: string })[];
  })[];
}
