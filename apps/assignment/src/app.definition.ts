import { defineApp } from '@media/platform';
import { assignmentConfig } from './config';
import { EscalationModule } from './escalation/escalation.module';
import { TasksModule } from './tasks/tasks.module';

/** How assignment boots, alone or inside the embedded default: its features declare their own tables. */
export const assignmentApp = defineApp({
  name: 'assignment',
  config: assignmentConfig,
  features: [TasksModule, EscalationModule],
});
