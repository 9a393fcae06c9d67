import { Module, type DynamicModule } from '@nestjs/common';
import { PlatformModule, type DatabaseParts } from '@media/platform';
import type { AssignmentConfig } from './config';
import { EscalationModule } from './escalation/escalation.module';
import { TasksModule } from './tasks/tasks.module';

@Module({})
export class AssignmentModule {
  static forRoot(config: AssignmentConfig, database: DatabaseParts): DynamicModule {
    return {
      module: AssignmentModule,
      imports: [
        PlatformModule.forApp({ name: 'assignment', config, database }),
        TasksModule,
        EscalationModule,
      ],
    };
  }
}
