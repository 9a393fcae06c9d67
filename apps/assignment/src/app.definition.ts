import type { AppDefinition } from '@media/platform';
import { AssignmentModule } from './app.module';
import { AssignmentConfig } from './config';
import { migrations } from './database/migrations';
import { Task } from './tasks/task.entity';

const database = { entities: [Task], migrations };

/** How assignment boots, alone or inside the embedded default. */
export const assignmentApp: AppDefinition<AssignmentConfig> = {
  name: 'assignment',
  configClass: AssignmentConfig,
  database,
  rootModule: (config) => AssignmentModule.forRoot(config, database),
};
