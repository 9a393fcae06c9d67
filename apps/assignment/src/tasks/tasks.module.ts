import { Module } from '@nestjs/common';
import { TypeOrmModule } from '@nestjs/typeorm';
import { Clock } from './clock';
import { Task } from './task.entity';
import { AnyPermissionGuard, ClaimPermissionGuard } from './task-guards';
import { TasksRpcController } from './tasks-rpc.controller';
import { TasksController } from './tasks.controller';
import { TasksService } from './tasks.service';
import { Feature } from '@media/platform';
import { CreateTasks1765000000000 } from '../database/migrations/1765000000000-create-tasks';

@Feature({ entities: [Task], migrations: [CreateTasks1765000000000] })
@Module({
  imports: [TypeOrmModule.forFeature([Task])],
  controllers: [TasksController, TasksRpcController],
  providers: [TasksService, Clock, AnyPermissionGuard, ClaimPermissionGuard],
  exports: [Clock],
})
export class TasksModule {}
