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
import {
  ApiBearerAuth,
  ApiCreatedResponse,
  ApiNoContentResponse,
  ApiOkResponse,
  ApiOperation,
  ApiTags,
} from '@nestjs/swagger';
import { Permissions, type TaskView } from '@media/contracts';
import {
  Idempotent,
  ApiErrors,
  CurrentUser,
  JsonOnly,
  RequirePermissions,
  type AuthUser,
  type Page,
} from '@media/platform';
import type { Request } from 'express';
import { CreateTaskDto } from './dto/create-task.dto';
import { ListTasksQuery } from './dto/list-tasks.query';
import { ClaimTaskDto, TaskIdParams } from './dto/task-params.dto';
import { ClaimResponseDto, TaskDto, TaskPageDto } from './dto/task.response';
import { ClaimPermissionGuard, RequireAnyPermission } from './task-guards';
import { TasksService } from './tasks.service';

/** Endpoint 4's envelope (docs/api/contract.md §3, §4.4). */
export interface ClaimResponse {
  success: true;
  message: 'Task claimed';
  data: TaskView;
}

@ApiTags('tasks')
@ApiBearerAuth()
@Controller('api/v1/tasks')
export class TasksController {
  constructor(@Inject(TasksService) private readonly tasks: TasksService) {}

  @Post()
  @Idempotent()
  @RequirePermissions(Permissions.tasksAssign)
  @ApiOperation({ operationId: 'assignment_tasks_create', summary: 'Create an OPEN task' })
  @ApiCreatedResponse({ type: TaskDto })
  @ApiErrors(401, 403, 413, 415, 422)
  create(@Body() dto: CreateTaskDto): Promise<TaskView> {
    return this.tasks.create(dto);
  }

  @Get()
  @RequirePermissions(Permissions.tasksRead)
  @ApiOperation({ operationId: 'assignment_tasks_list', summary: 'List tasks (cursor), or the work queue' })
  @ApiOkResponse({ type: TaskPageDto })
  @ApiErrors(401, 403, 422)
  list(
    @Query() query: ListTasksQuery,
    @CurrentUser() caller: AuthUser,
    @Req() req: Request,
  ): Promise<Page<TaskView>> {
    return this.tasks.list(query, caller, req);
  }

  @Get(':task_id')
  @RequirePermissions(Permissions.tasksRead)
  @ApiOperation({ operationId: 'assignment_tasks_get', summary: 'Get one task' })
  @ApiOkResponse({ type: TaskDto })
  @ApiErrors(401, 403, 404, 422)
  get(@Param() params: TaskIdParams): Promise<TaskView> {
    return this.tasks.get(params.task_id);
  }

  @Delete(':task_id')
  @HttpCode(204)
  @RequirePermissions(Permissions.tasksAssign)
  @ApiOperation({ operationId: 'assignment_tasks_delete', summary: 'Soft-delete a task' })
  @ApiNoContentResponse({ description: 'Deleted; later reads are 404.' })
  @ApiErrors(401, 403, 404, 422)
  async remove(@Param() params: TaskIdParams): Promise<void> {
    await this.tasks.remove(params.task_id);
  }

  /** Endpoint 4 (docs/api/contract.md §4.4). */
  @Post(':task_id/claim')
  @Idempotent()
  @HttpCode(200)
  @JsonOnly()
  @UseGuards(ClaimPermissionGuard)
  @ApiOperation({ operationId: 'assignment_tasks_claim', summary: 'Claim a task (endpoint 4)' })
  @ApiOkResponse({ type: ClaimResponseDto })
  @ApiErrors(401, 403, 404, 409, 413, 415, 422, 503)
  async claim(
    @Param() params: TaskIdParams,
    @Body() dto: ClaimTaskDto,
    @CurrentUser() caller: AuthUser,
  ): Promise<ClaimResponse> {
    return {
      success: true,
      message: 'Task claimed',
      data: await this.tasks.claim(params.task_id, dto.user_id, caller),
    };
  }

  @Post(':task_id/unclaim')
  @HttpCode(200)
  @RequireAnyPermission(Permissions.tasksClaim, Permissions.tasksAssign)
  @ApiOperation({
    operationId: 'assignment_tasks_unclaim',
    summary: 'Give a held task back (assignee or tasks:assign)',
  })
  @ApiOkResponse({ type: TaskDto })
  @ApiErrors(401, 403, 404, 409, 422)
  unclaim(@Param() params: TaskIdParams, @CurrentUser() caller: AuthUser): Promise<TaskView> {
    return this.tasks.transition('unclaim', params.task_id, caller);
  }

  @Post(':task_id/start')
  @HttpCode(200)
  @RequireAnyPermission(Permissions.tasksClaim, Permissions.tasksAssign)
  @ApiOperation({ operationId: 'assignment_tasks_start', summary: 'Start a CLAIMED task' })
  @ApiOkResponse({ type: TaskDto })
  @ApiErrors(401, 403, 404, 409, 422)
  start(@Param() params: TaskIdParams, @CurrentUser() caller: AuthUser): Promise<TaskView> {
    return this.tasks.transition('start', params.task_id, caller);
  }

  @Post(':task_id/complete')
  @HttpCode(200)
  @RequireAnyPermission(Permissions.tasksClaim, Permissions.tasksAssign)
  @ApiOperation({
    operationId: 'assignment_tasks_complete',
    summary: 'Complete a CLAIMED or IN_PROGRESS task',
  })
  @ApiOkResponse({ type: TaskDto })
  @ApiErrors(401, 403, 404, 409, 422)
  complete(@Param() params: TaskIdParams, @CurrentUser() caller: AuthUser): Promise<TaskView> {
    return this.tasks.transition('complete', params.task_id, caller);
  }

  @Post(':task_id/cancel')
  @HttpCode(200)
  @RequirePermissions(Permissions.tasksAssign)
  @ApiOperation({ operationId: 'assignment_tasks_cancel', summary: 'Cancel a task that is not finished' })
  @ApiOkResponse({ type: TaskDto })
  @ApiErrors(401, 403, 404, 409, 422)
  cancel(@Param() params: TaskIdParams, @CurrentUser() caller: AuthUser): Promise<TaskView> {
    return this.tasks.transition('cancel', params.task_id, caller);
  }
}
