import { Body, Controller, Delete, HttpCode, Inject, Param, Post } from '@nestjs/common';
import { ApiBearerAuth, ApiOperation, ApiTags } from '@nestjs/swagger';
import { ApiErrors, ApiSuccess, CurrentUser, envelope, type Envelope } from '@media/http';
import type { AuthUser } from '@media/core';
import { AddMembersDto } from './dto/add-members.dto';
import { RoomIdParams } from './dto/room-id.params';
import { RoomMemberParams } from './dto/room-member.params';
import { RoomResponse } from './dto/room.response';
import { RoomMembersService } from './room-members.service';
import type { RoomView } from './room.view';

/** A room's members (docs/api/contract.md §4.1); every success is enveloped. */
@ApiTags('chat')
@ApiBearerAuth()
@Controller('v1/chat/rooms')
export class RoomMembersController {
  constructor(@Inject(RoomMembersService) private readonly members: RoomMembersService) {}

  @Post(':id/members')
  @HttpCode(200)
  @ApiOperation({ summary: 'Add members to a room' })
  @ApiSuccess(RoomResponse, { envelope: true })
  @ApiErrors(401, 403, 404, 409, 413, 415, 422, 503)
  async addMembers(
    @Param() params: RoomIdParams,
    @Body() dto: AddMembersDto,
    @CurrentUser() user: AuthUser,
  ): Promise<Envelope<RoomView>> {
    return envelope('Members added', await this.members.add(params.id, dto, user));
  }

  @Delete(':id/members/:user_id')
  @ApiOperation({ summary: 'Remove a member from a room' })
  @ApiSuccess(RoomResponse, { envelope: true })
  @ApiErrors(401, 403, 404, 409, 422)
  async removeMember(
    @Param() params: RoomMemberParams,
    @CurrentUser() user: AuthUser,
  ): Promise<Envelope<RoomView>> {
    return envelope('Member removed', await this.members.remove(params.id, params.user_id, user));
  }
}
