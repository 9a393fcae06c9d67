import { Module } from '@nestjs/common';
import { TasksModule } from '../tasks/tasks.module';
import { EscalatorService } from './escalator.service';
import { Feature } from '@media/platform';

/** Owns no table. */
@Feature({})
@Module({
  imports: [TasksModule],
  providers: [EscalatorService],
  exports: [EscalatorService],
})
export class EscalationModule {}
