import { Body, Controller, Get, HttpCode, Inject, Param, Post, Query, Req } from '@nestjs/common';
import { ApiBearerAuth, ApiTags } from '@nestjs/swagger';
import { Permissions } from '@media/contracts';
import { CurrentUser, Multipart, Public, RequirePermissions, type AuthUser } from '@media/platform';
import type { Request } from 'express';
import { CorrespondentsService } from './correspondents.service';
import {
  AcceptInvitationDto,
  InvitationTokenParams,
  InviteCorrespondentDto,
  ListCorrespondentsQuery,
} from './dto/correspondent.dto';

@ApiTags('correspondents')
@Controller('api/v1/auth')
export class CorrespondentsController {
  constructor(@Inject(CorrespondentsService) private readonly correspondents: CorrespondentsService) {}

  /** Endpoint 7. */
  @Get('correspondents/invite')
  @ApiBearerAuth()
  @RequirePermissions(Permissions.correspondentsRead)
  list(@Query() query: ListCorrespondentsQuery, @Req() req: Request) {
    return this.correspondents.list(query, req);
  }

  @Post('correspondents/invite')
  @Multipart()
  @ApiBearerAuth()
  @RequirePermissions(Permissions.correspondentsInvite)
  invite(@Body() dto: InviteCorrespondentDto, @CurrentUser() inviter: AuthUser) {
    return this.correspondents.invite(dto, inviter);
  }

  /** Public: the invited person has no token yet (CONTRACT §1). */
  @Post('invitations/:token/accept')
  @Public()
  @HttpCode(200)
  accept(@Param() params: InvitationTokenParams, @Body() dto: AcceptInvitationDto) {
    return this.correspondents.accept(params.token, dto.password);
  }
}
