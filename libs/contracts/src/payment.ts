/** One tier of a commission plan: from `min_achievement_pct` of the target, `rate_pct` of collections. */
export interface CommissionTierView {
  min_achievement_pct: string;
  rate_pct: string;
}

/** A category's commission plan; tiers by `min_achievement_pct` ascending. */
export interface CommissionPlanView {
  id: string;
  category: string;
  tiers: CommissionTierView[];
  created_at: string;
  updated_at: string;
}

/** A BM's target for one category and month. */
export interface CommissionTargetView {
  id: string;
  bm_id: string;
  category: string;
  month: number;
  year: number;
  target_amount: string;
  created_at: string;
  updated_at: string;
}

/** Money a BM collected for a category. */
export interface CollectionView {
  id: string;
  bm_id: string;
  category: string;
  amount: string;
  collected_at: string;
  created_at: string;
}

/** Commission attainment of one BM in one category (the contract's AttainmentRow). */
export interface AttainmentView {
  bm_id: string;
  bm_name: string | null;
  bm_email: string | null;
  employee_number: string | null;
  category: string;
  target_amount: string | null;
  collected_revenue: string;
  achievement_pct: string | null;
  commission_rate: string;
  commission_amount: string;
}
