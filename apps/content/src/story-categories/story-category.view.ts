import type { StoryCategoryView } from '@media/contracts';
import type { StoryCategory } from './story-category.entity';

/** A story category as clients see it. */
export function toStoryCategoryView(row: StoryCategory): StoryCategoryView {
  return {
    id: row.id,
    name: row.name,
    description: row.description,
    created_at: row.createdAt.toISOString(),
    updated_at: row.updatedAt.toISOString(),
  };
}
