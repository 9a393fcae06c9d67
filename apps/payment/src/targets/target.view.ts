import type { CommissionTargetView } from '@media/contracts';
import type { CommissionTarget } from './target.entity';

/** The row as the API shows it. */
export function toCommissionTargetView(t: CommissionTarget): CommissionTargetView {
  return {
    id: t.id,
    bm_id: t.bmId,
    category: t.category,
    month: t.month,
    year: t.year,
    target_amount: t.targetAmount,
    created_at: t.createdAt.toISOString(),
    updated_at: t.updatedAt.toISOString(),
  };
}
