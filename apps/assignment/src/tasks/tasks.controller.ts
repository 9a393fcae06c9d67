import {
  Body,
  Controller,
  Delete,
  Get,
  HttpCode,
  Inject,
  Param,
  Post,
  Query,
  Req,
  UseGuards,
} from '@nestjs/common';
import { ApiBearerAuth, ApiOperation, ApiTags } from '@nestjs/swagger';
import { Permissions, type BulkTaskResult, type TaskView } from '@media/contracts';
import {
  ApiErrors,
  ApiNoContent,
  ApiSuccess,
  CurrentUser,
  Idempotent,
  JsonOnly,
  RequireAnyPermission,
  RequirePermissions,
  type Page,
} from '@media/http';
import type { AuthUser } from '@media/core';
import type { Request } from 'express';
import { BulkPermissionGuard } from './bulk-permission.guard';
import { BulkTasksService } from './bulk-tasks.service';
import { ClaimPermissionGuard } from './claim-permission.guard';
import { BulkTasksDto } from './dto/bulk-tasks.dto';
import { BulkTasksResponse } from './dto/bulk-tasks.response';
import { ClaimTaskDto } from './dto/claim-task.dto';
import { CreateTaskDto } from './dto/create-task.dto';
import { ListTasksQuery } from './dto/list-tasks.query';
import { ReassignTaskDto } from './dto/reassign-task.dto';
import { TaskIdParams } from './dto/task.params';
import { TaskResponse } from './dto/task.response';
import { enveloped, type Enveloped } from './task.view';
import { TasksService } from './tasks.service';

@ApiTags('tasks')
@ApiBearerAuth()
@Controller('api/v1/tasks')
export class TasksController {
  constructor(
    @Inject(TasksService) private readonly tasks: TasksService,
    @Inject(BulkTasksService) private readonly bulkTasks: BulkTasksService,
  ) {}

  @Post()
  @Idempotent()
  @RequirePermissions(Permissions.tasksAssign)
  @ApiOperation({ operationId: 'assignmentTasksCreate', summary: 'Create an OPEN task' })
  @ApiSuccess(TaskResponse, { status: 201 })
  @ApiErrors(401, 403, 413, 415, 422)
  create(@Body() dto: CreateTaskDto): Promise<TaskView> {
    return this.tasks.create(dto);
  }

  @Get()
  @RequirePermissions(Permissions.tasksRead)
  @ApiOperation({ operationId: 'assignmentTasksList', summary: 'List tasks (cursor), or the work queue' })
  @ApiSuccess(TaskResponse, { list: 'page' })
  @ApiErrors(401, 403, 422)
  list(
    @Query() query: ListTasksQuery,
    @CurrentUser() caller: AuthUser,
    @Req() req: Request,
  ): Promise<Page<TaskView>> {
    return this.tasks.list(query, caller, req);
  }

  /** docs/api/contract.md §7.2: one action on up to 100 tasks, each its own transaction. */
  @Post('bulk')
  @Idempotent()
  @HttpCode(200)
  @JsonOnly()
  @UseGuards(BulkPermissionGuard)
  @ApiOperation({
    operationId: 'assignmentTasksBulk',
    summary: 'Claim, unclaim, start, complete, cancel or reassign up to 100 tasks',
    description:
      'Always 200 once the body validates: one result per task, in the order of task_ids, with the status and body the single action would have answered.',
  })
  @ApiSuccess(BulkTasksResponse, { envelope: true, description: 'Bulk action applied' })
  @ApiErrors(401, 403, 413, 415, 422, 503)
  async bulk(
    @Body() dto: BulkTasksDto,
    @CurrentUser() caller: AuthUser,
  ): Promise<Enveloped<{ results: BulkTaskResult[] }>> {
    return enveloped('Bulk action applied', { results: await this.bulkTasks.apply(dto, caller) });
  }

  @Get(':task_id')
  @RequirePermissions(Permissions.tasksRead)
  @ApiOperation({ operationId: 'assignmentTasksGet', summary: 'Get one task' })
  @ApiSuccess(TaskResponse)
  @ApiErrors(401, 403, 404, 422)
  get(@Param() params: TaskIdParams): Promise<TaskView> {
    return this.tasks.get(params.task_id);
  }

  @Delete(':task_id')
  @HttpCode(204)
  @RequirePermissions(Permissions.tasksAssign)
  @ApiOperation({ operationId: 'assignmentTasksDelete', summary: 'Soft-delete a task' })
  @ApiNoContent('Deleted; later reads are 404.')
  @ApiErrors(401, 403, 404, 422)
  async remove(@Param() params: TaskIdParams): Promise<void> {
    await this.tasks.remove(params.task_id);
  }

  /** Claims a task (docs/api/contract.md §4.4). */
  @Post(':task_id/claim')
  @Idempotent()
  @HttpCode(200)
  @JsonOnly()
  @UseGuards(ClaimPermissionGuard)
  @ApiOperation({ operationId: 'assignmentTasksClaim', summary: 'Claim a task' })
  @ApiSuccess(TaskResponse, { envelope: true, description: 'Task claimed' })
  @ApiErrors(401, 403, 404, 409, 413, 415, 422, 503)
  async claim(
    @Param() params: TaskIdParams,
    @Body() dto: ClaimTaskDto,
    @CurrentUser() caller: AuthUser,
  ): Promise<Enveloped<TaskView>> {
    return enveloped('Task claimed', await this.tasks.claim(params.task_id, dto.user_id, caller));
  }

  /** docs/api/contract.md §7.2: a held task to another user, status kept. */
  @Post(':task_id/reassign')
  @Idempotent()
  @HttpCode(200)
  @JsonOnly()
  @RequirePermissions(Permissions.tasksAssign)
  @ApiOperation({
    operationId: 'assignmentTasksReassign',
    summary: 'Give a CLAIMED or IN_PROGRESS task to another user',
  })
  @ApiSuccess(TaskResponse, { envelope: true, description: 'Task reassigned' })
  @ApiErrors(
    401,
    [
      403,
      'tasks:assign is missing, or the new assignee lacks a permission of the task or is in none of its candidate groups',
    ],
    404,
    [409, 'task_not_reassignable: the task is not CLAIMED or IN_PROGRESS'],
    413,
    415,
    [422, 'Validation failed, or user_id is not an active user'],
    503,
  )
  async reassign(
    @Param() params: TaskIdParams,
    @Body() dto: ReassignTaskDto,
    @CurrentUser() caller: AuthUser,
  ): Promise<Enveloped<TaskView>> {
    return enveloped('Task reassigned', await this.tasks.reassign(params.task_id, dto.user_id, caller));
  }

  @Post(':task_id/unclaim')
  @HttpCode(200)
  @RequireAnyPermission(Permissions.tasksClaim, Permissions.tasksAssign)
  @ApiOperation({
    operationId: 'assignmentTasksUnclaim',
    summary: 'Give a held task back (assignee or tasks:assign)',
  })
  @ApiSuccess(TaskResponse)
  @ApiErrors(401, 403, 404, 409, 422)
  unclaim(@Param() params: TaskIdParams, @CurrentUser() caller: AuthUser): Promise<TaskView> {
    return this.tasks.transition('unclaim', params.task_id, caller);
  }

  @Post(':task_id/start')
  @HttpCode(200)
  @RequireAnyPermission(Permissions.tasksClaim, Permissions.tasksAssign)
  @ApiOperation({ operationId: 'assignmentTasksStart', summary: 'Start a CLAIMED task' })
  @ApiSuccess(TaskResponse)
  @ApiErrors(401, 403, 404, 409, 422)
  start(@Param() params: TaskIdParams, @CurrentUser() caller: AuthUser): Promise<TaskView> {
    return this.tasks.transition('start', params.task_id, caller);
  }

  @Post(':task_id/complete')
  @HttpCode(200)
  @RequireAnyPermission(Permissions.tasksClaim, Permissions.tasksAssign)
  @ApiOperation({
    operationId: 'assignmentTasksComplete',
    summary: 'Complete a CLAIMED or IN_PROGRESS task',
  })
  @ApiSuccess(TaskResponse)
  @ApiErrors(401, 403, 404, 409, 422)
  complete(@Param() params: TaskIdParams, @CurrentUser() caller: AuthUser): Promise<TaskView> {
    return this.tasks.transition('complete', params.task_id, caller);
  }

  @Post(':task_id/cancel')
  @HttpCode(200)
  @RequirePermissions(Permissions.tasksAssign)
  @ApiOperation({ operationId: 'assignmentTasksCancel', summary: 'Cancel a task that is not finished' })
  @ApiSuccess(TaskResponse)
  @ApiErrors(401, 403, 404, 409, 422)
  cancel(@Param() params: TaskIdParams, @CurrentUser() caller: AuthUser): Promise<TaskView> {
    return this.tasks.transition('cancel', params.task_id, caller);
  }
}
