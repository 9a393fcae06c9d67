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
import { ApiBearerAuth, ApiOperation, ApiTags } from '@nestjs/swagger';
import { Permissions } from '@media/contracts';
import {
  ApiErrors,
  ApiNoContent,
  ApiSuccess,
  Idempotent,
  Multipart,
  type Page,
  RequirePermissions,
} from '@media/http';
import type { Request, Response } from 'express';
import {
  AddMemberDto,
  CreateGroupDto,
  GroupIdParams,
  GroupMemberParams,
  ListGroupsQuery,
} from './dto/group.dto';
import { GroupResponse, MembershipResponse } from './dto/group.response';
import type { GroupView, MembershipView } from './group.view';
import { GroupsService } from './groups.service';

@ApiTags('groups')
@ApiBearerAuth()
@RequirePermissions(Permissions.usersAdmin)
@Controller('api/v1/groups')
export class GroupsController {
  constructor(@Inject(GroupsService) private readonly groups: GroupsService) {}

  @Post()
  @Idempotent()
  @Multipart()
  @ApiOperation({ summary: 'Create a group' })
  @ApiSuccess(GroupResponse, { status: 201 })
  @ApiErrors(401, 403, [409, 'The name is taken (`group_name_taken`)'], 413, 415, 422)
  create(@Body() dto: CreateGroupDto): Promise<GroupView> {
    return this.groups.create(dto.name);
  }

  @Get()
  @ApiOperation({ summary: 'List groups (cursor)' })
  @ApiSuccess(GroupResponse, { list: 'page' })
  @ApiErrors(401, 403, 422)
  list(@Query() query: ListGroupsQuery, @Req() req: Request): Promise<Page<GroupView>> {
    return this.groups.list(query, req);
  }

  @Get(':id')
  @ApiOperation({ summary: 'Get one group' })
  @ApiSuccess(GroupResponse)
  @ApiErrors(401, 403, 404, 422)
  get(@Param() params: GroupIdParams): Promise<GroupView> {
    return this.groups.get(params.id);
  }

  /** 201 when the user joins, 200 when it already was a member (docs/api/contract.md §4a). */
  @Post(':id/members')
  @Multipart()
  @ApiOperation({ summary: 'Add a user to a group (200 when already a member)' })
  @ApiSuccess(MembershipResponse, { status: 201, also: [200], description: 'Joined (200: already a member)' })
  @ApiErrors(401, 403, 404, 413, 415, [422, 'Invalid body, or the user does not exist'])
  async addMember(
    @Param() params: GroupIdParams,
    @Body() dto: AddMemberDto,
    @Res({ passthrough: true }) res: Response,
  ): Promise<MembershipView> {
    const { created, membership } = await this.groups.addMember(params.id, dto.user_id);
    res.status(created ? 201 : 200);
    return membership;
  }

  @Delete(':id/members/:user_id')
  @HttpCode(204)
  @ApiOperation({ summary: 'Remove a user from a group' })
  @ApiNoContent('Removed')
  @ApiErrors(401, 403, [404, 'Unknown group or not a member'], 422)
  async removeMember(@Param() params: GroupMemberParams): Promise<void> {
    await this.groups.removeMember(params.id, params.user_id);
  }
}
