import { Body, Controller, Get, Inject, Param, Patch, Post, Query, Req } from '@nestjs/common';
import { ApiBearerAuth, ApiOperation, ApiTags } from '@nestjs/swagger';
import { Permissions } from '@media/contracts';
import {
  Idempotent,
  ApiErrors,
  ApiSuccess,
  CurrentUser,
  Multipart,
  RequirePermissions,
  type Page,
} from '@media/http';
import type { AuthUser } from '@media/core';
import type { Request } from 'express';
import { CreateUserDto } from './dto/create-user.dto';
import { ListUsersQuery } from './dto/list-users.query';
import { UpdateUserDto } from './dto/update-user.dto';
import { UserIdParams } from './dto/user-id.params';
import { UserResponse } from './dto/user.response';
import type { UserView } from './user.view';
import { UsersService } from './users.service';

@ApiTags('users')
@ApiBearerAuth()
@Controller('api/v1/users')
export class UsersController {
  constructor(@Inject(UsersService) private readonly users: UsersService) {}

  /** Declared before `:id` so that `me` is never read as an id. */
  @Get('me')
  @ApiOperation({ summary: 'The caller' })
  @ApiSuccess(UserResponse)
  @ApiErrors(401, [404, 'The caller no longer exists'])
  me(@CurrentUser() caller: AuthUser): Promise<UserView> {
    return this.users.me(caller.id);
  }

  @Get()
  @RequirePermissions(Permissions.usersAdmin)
  @ApiOperation({ summary: 'List users (cursor)' })
  @ApiSuccess(UserResponse, { list: 'page' })
  @ApiErrors(401, 403, 422)
  list(@Query() query: ListUsersQuery, @Req() req: Request): Promise<Page<UserView>> {
    return this.users.list(query, req);
  }

  @Post()
  @Idempotent()
  @Multipart()
  @RequirePermissions(Permissions.usersAdmin)
  @ApiOperation({ summary: 'Create a user' })
  @ApiSuccess(UserResponse, { status: 201 })
  @ApiErrors(401, 403, [409, 'The email or employee number is taken'], 413, 415, 422)
  create(@Body() dto: CreateUserDto): Promise<UserView> {
    return this.users.create(dto);
  }

  @Get(':id')
  @RequirePermissions(Permissions.usersAdmin)
  @ApiOperation({ summary: 'Get one user' })
  @ApiSuccess(UserResponse)
  @ApiErrors(401, 403, 404, 422)
  get(@Param() params: UserIdParams): Promise<UserView> {
    return this.users.get(params.id);
  }

  @Patch(':id')
  @Multipart()
  @RequirePermissions(Permissions.usersAdmin)
  @ApiOperation({ summary: 'Update a user (fields given only)' })
  @ApiSuccess(UserResponse)
  @ApiErrors(
    401,
    403,
    404,
    [409, 'Email or employee number taken, a pending invitation, or the last admin'],
    413,
    415,
    422,
  )
  update(@Param() params: UserIdParams, @Body() dto: UpdateUserDto): Promise<UserView> {
    return this.users.update(params.id, dto);
  }
}
