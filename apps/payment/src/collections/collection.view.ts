import type { CollectionView } from '@media/contracts';
import type { Collection } from './collection.entity';

/** The row as the API shows it. */
export function toCollectionView(c: Collection): CollectionView {
  return {
    id: c.id,
    bm_id: c.bmId,
    category: c.category,
    amount: c.amount,
    collected_at: c.collectedAt.toISOString(),
    created_at: c.createdAt.toISOString(),
  };
}
