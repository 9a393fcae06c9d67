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
  Res,
} from '@nestjs/common';
import { ApiBearerAuth, ApiTags } from '@nestjs/swagger';
import { Permissions } from '@media/contracts';
import { Multipart, RequirePermissions } from '@media/platform';
import type { Request, Response } from 'express';
import {
  AddMemberDto,
  CreateGroupDto,
  GroupIdParams,
  GroupMemberParams,
  ListGroupsQuery,
} from './dto/group.dto';
import { GroupsService } from './groups.service';

@ApiTags('groups')
@ApiBearerAuth()
@RequirePermissions(Permissions.usersAdmin)
@Controller('api/v1/groups')
export class GroupsController {
  constructor(@Inject(GroupsService) private readonly groups: GroupsService) {}

  @Post()
  @Multipart()
  create(@Body() dto: CreateGroupDto) {
    return this.groups.create(dto.name);
  }

  @Get()
  list(@Query() query: ListGroupsQuery, @Req() req: Request) {
    return this.groups.list(query, req);
  }

  @Get(':id')
  get(@Param() params: GroupIdParams) {
    return this.groups.get(params.id);
  }

  /** 201 when the user joins, 200 when it already was a member (CONTRACT §4a). */
  @Post(':id/members')
  @Multipart()
  async addMember(
    @Param() params: GroupIdParams,
    @Body() dto: AddMemberDto,
    @Res({ passthrough: true }) res: Response,
  ) {
    const { created, membership } = await this.groups.addMember(params.id, dto.user_id);
    res.status(created ? 201 : 200);
    return membership;
  }

  @Delete(':id/members/:user_id')
  @HttpCode(204)
  async removeMember(@Param() params: GroupMemberParams): Promise<void> {
    await this.groups.removeMember(params.id, params.user_id);
  }
}
