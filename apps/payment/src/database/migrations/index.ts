import { CreateCommissions1764200000000 } from './1764200000000-create-commissions';

/** payment's migrations, in order. */
export const migrations = [CreateCommissions1764200000000];
