import { Module } from '@nestjs/common';
import { TasksModule } from '../tasks/tasks.module';
import { Escalator } from './escalator.service';

@Module({
  imports: [TasksModule],
  providers: [Escalator],
  exports: [Escalator],
})
export class EscalationModule {}
