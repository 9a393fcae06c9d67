import { Module } from '@nestjs/common';
import { TypeOrmModule } from '@nestjs/typeorm';
import { AnyPermissionGuard } from '@media/http';
import { Feature } from '@media/platform';
import { CreateTasks1765000000000 } from '../database/migrations/1765000000000-create-tasks';
import { BulkPermissionGuard } from './bulk-permission.guard';
import { BulkTasksService } from './bulk-tasks.service';
import { ClaimPermissionGuard } from './claim-permission.guard';
import { ClockService } from './clock.service';
import { Task } from './task.entity';
import { TasksController } from './tasks.controller';
import { TasksRpc } from './tasks.rpc';
import { TasksService } from './tasks.service';
import { AuditTrailAssignment1765000000100 } from '../database/migrations/1765000000100-audit-trail';

@Feature({ entities: [Task], migrations: [CreateTasks1765000000000, AuditTrailAssignment1765000000100] })
@Module({
  imports: [TypeOrmModule.forFeature([Task])],
  controllers: [TasksController, TasksRpc],
  providers: [
    TasksService,
    BulkTasksService,
    ClockService,
    AnyPermissionGuard,
    ClaimPermissionGuard,
    BulkPermissionGuard,
  ],
  exports: [ClockService],
})
export class TasksModule {}
