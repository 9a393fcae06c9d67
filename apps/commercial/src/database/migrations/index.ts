import { CreateSales1764100000000 } from './1764100000000-create-sales';

/** commercial's migrations, in order. */
export const migrations = [CreateSales1764100000000];
