import { Module } from '@nestjs/common';
import { TasksModule } from '../tasks/tasks.module';
import { EscalatorService } from './escalator.service';

@Module({
  imports: [TasksModule],
  providers: [EscalatorService],
  exports: [EscalatorService],
})
export class EscalationModule {}
