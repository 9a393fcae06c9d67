import type { AttainmentView, UserProfile } from '@media/contracts';
import { formatMoney } from '@media/core';
import type { AttainmentSqlRow } from './attainment.sql';
import { commission } from './commission';

/** A BM's attainment in one category, with the BM's profile (null fields when acl has none). */
export function toAttainmentView(row: AttainmentSqlRow, profile: UserProfile | undefined): AttainmentView {
  const collected = formatMoney(row.collected);
  return {
    bm_id: row.bm_id,
    bm_name: profile?.name ?? null,
    bm_email: profile?.email ?? null,
    employee_number: profile?.employee_number ?? null,
    category: row.category,
    target_amount: row.target_amount === null ? null : formatMoney(row.target_amount),
    collected_revenue: collected,
    ...commission(row.target_amount, collected, row.tiers),
  };
}
