import { Body, Controller, Get, HttpCode, Inject, Param, Post, Query, Req } from '@nestjs/common';
import { ApiBearerAuth, ApiOperation, ApiTags } from '@nestjs/swagger';
import { Permissions } from '@media/contracts';
import {
  Idempotent,
  ApiErrors,
  ApiSuccess,
  CurrentUser,
  Multipart,
  Public,
  RequirePermissions,
  type Page,
} from '@media/http';
import type { AuthUser } from '@media/core';
import type { Request } from 'express';
import { UserResponse } from '../users/dto/user.response';
import type { UserView } from '../users/user.view';
import type { CorrespondentView, InvitedCorrespondentView } from './correspondent.view';
import { CorrespondentsService } from './correspondents.service';
import {
  AcceptInvitationDto,
  InvitationTokenParams,
  InviteCorrespondentDto,
  ListCorrespondentsQuery,
} from './dto/correspondent.dto';
import { CorrespondentResponse, InvitedCorrespondentResponse } from './dto/correspondent.response';

@ApiTags('correspondents')
@Controller('api/v1/auth')
export class CorrespondentsController {
  constructor(@Inject(CorrespondentsService) private readonly correspondents: CorrespondentsService) {}

  @Get('correspondents/invite')
  @ApiBearerAuth()
  @RequirePermissions(Permissions.correspondentsRead)
  @ApiOperation({ summary: 'List correspondents (cursor)' })
  @ApiSuccess(CorrespondentResponse, { list: 'page' })
  @ApiErrors(401, 403, 422)
  list(@Query() query: ListCorrespondentsQuery, @Req() req: Request): Promise<Page<CorrespondentView>> {
    return this.correspondents.list(query, req);
  }

  @Post('correspondents/invite')
  @Idempotent()
  @Multipart()
  @ApiBearerAuth()
  @RequirePermissions(Permissions.correspondentsInvite)
  @ApiOperation({ summary: 'Invite a correspondent (an INVITED user and a single-use token)' })
  @ApiSuccess(InvitedCorrespondentResponse, { status: 201 })
  @ApiErrors(401, 403, [409, 'The email is taken (`email_taken`)'], 413, 415, 422)
  invite(
    @Body() dto: InviteCorrespondentDto,
    @CurrentUser() inviter: AuthUser,
  ): Promise<InvitedCorrespondentView> {
    return this.correspondents.invite(dto, inviter);
  }

  /** Public: the invited person has no token yet (docs/api/contract.md §1). */
  @Post('invitations/:token/accept')
  @Idempotent()
  @Public()
  @HttpCode(200)
  @ApiOperation({ summary: 'Accept an invitation: set the password, become ACTIVE' })
  @ApiSuccess(UserResponse)
  @ApiErrors(
    [404, 'Unknown, used or withdrawn invitation'],
    [410, 'The invitation has expired (`invitation_expired`)'],
    413,
    415,
    422,
  )
  accept(@Param() params: InvitationTokenParams, @Body() dto: AcceptInvitationDto): Promise<UserView> {
    return this.correspondents.accept(params.token, dto.password);
  }
}
