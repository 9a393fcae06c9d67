import { Module } from '@nestjs/common';
import { TypeOrmModule } from '@nestjs/typeorm';
import { AclDirectory } from './acl-directory';
import { Clock } from './clock';
import { Task } from './task.entity';
import { AnyPermissionGuard, ClaimPermissionGuard } from './task-guards';
import { TasksRpcController } from './tasks-rpc.controller';
import { TasksController } from './tasks.controller';
import { TasksService } from './tasks.service';

@Module({
  imports: [TypeOrmModule.forFeature([Task])],
  controllers: [TasksController, TasksRpcController],
  providers: [TasksService, AclDirectory, Clock, AnyPermissionGuard, ClaimPermissionGuard],
  exports: [Clock],
})
export class TasksModule {}
