/** Deal statuses; only `WON` deals count in sales analytics (docs/api/contract.md §4.8). */
export const DEAL_STATUSES = ['WON', 'LOST', 'PENDING'] as const;
export type DealStatus = (typeof DEAL_STATUSES)[number];

/** A client of the sales team (`POST /commercial/api/v1/clients`). */
export interface ClientView {
  id: string;
  name: string;
  category: string;
  created_at: string;
  updated_at: string;
}

/** A deal with a client (`POST /commercial/api/v1/deals`); money as a two-decimal string. */
export interface DealView {
  id: string;
  client_id: string;
  contracted_revenue: string;
  contract_date: string;
  status: DealStatus;
  created_at: string;
  updated_at: string;
}

/** One client of the top-clients ranking (the contract's TopClientRow). */
export interface TopClientView {
  client_name: string;
  category: string;
  deal_count: number;
  total_contracted_revenue: string;
  /** Share of the returned rows' total; `null` only when that total is zero. */
  revenue_share_pct: string | null;
}
