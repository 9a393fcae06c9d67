import type { DealView } from '@media/contracts';
import type { Deal } from './deal.entity';

/** The deal as the API shows it. */
export function toDealView(deal: Deal): DealView {
  return {
    id: deal.id,
    client_id: deal.clientId,
    contracted_revenue: deal.contractedRevenue,
    contract_date: deal.contractDate,
    status: deal.status,
    created_at: deal.createdAt.toISOString(),
    updated_at: deal.updatedAt.toISOString(),
  };
}
