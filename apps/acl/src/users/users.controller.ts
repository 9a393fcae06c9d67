import { Body, Controller, Get, Inject, Param, Patch, Post, Query, Req } from '@nestjs/common';
import { ApiBearerAuth, ApiTags } from '@nestjs/swagger';
import { Permissions } from '@media/contracts';
import { CurrentUser, Multipart, RequirePermissions, type AuthUser } from '@media/platform';
import type { Request } from 'express';
import { CreateUserDto } from './dto/create-user.dto';
import { ListUsersQuery } from './dto/list-users.query';
import { UpdateUserDto } from './dto/update-user.dto';
import { UserIdParams } from './dto/user-id.params';
import { UsersService } from './users.service';

@ApiTags('users')
@ApiBearerAuth()
@Controller('api/v1/users')
export class UsersController {
  constructor(@Inject(UsersService) private readonly users: UsersService) {}

  /** Declared before `:id` so that `me` is never read as an id. */
  @Get('me')
  me(@CurrentUser() caller: AuthUser) {
    return this.users.me(caller.id);
  }

  @Get()
  @RequirePermissions(Permissions.usersAdmin)
  list(@Query() query: ListUsersQuery, @Req() req: Request) {
    return this.users.list(query, req);
  }

  @Post()
  @Multipart()
  @RequirePermissions(Permissions.usersAdmin)
  create(@Body() dto: CreateUserDto) {
    return this.users.create(dto);
  }

  @Get(':id')
  @RequirePermissions(Permissions.usersAdmin)
  get(@Param() params: UserIdParams) {
    return this.users.get(params.id);
  }

  @Patch(':id')
  @Multipart()
  @RequirePermissions(Permissions.usersAdmin)
  update(@Param() params: UserIdParams, @Body() dto: UpdateUserDto) {
    return this.users.update(params.id, dto);
  }
}
