import type { CommissionPlanView, CommissionTierView } from '@media/contracts';

/** The plan columns the view shows. */
export interface PlanRow {
  id: string;
  category: string;
  created_at: Date;
  updated_at: Date;
}

/** A plan with its tiers as the API shows it. */
export function toPlanView(row: PlanRow, tiers: CommissionTierView[]): CommissionPlanView {
  return {
    id: row.id,
    category: row.category,
    tiers,
    created_at: row.created_at.toISOString(),
    updated_at: row.updated_at.toISOString(),
  };
}
