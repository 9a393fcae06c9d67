import { CreateTasks1765000000000 } from './1765000000000-create-tasks';

/** assignment's migrations, in order. */
export const migrations = [CreateTasks1765000000000];
