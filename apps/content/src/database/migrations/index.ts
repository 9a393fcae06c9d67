import { CreateLineup1764100000000 } from './1764100000000-create-lineup';
import { CreateStoryCategories1764100000001 } from './1764100000001-create-story-categories';

/** content's migrations, in order. */
export const migrations = [CreateLineup1764100000000, CreateStoryCategories1764100000001];
