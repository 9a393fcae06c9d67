import { Controller, Get, Inject, Query } from '@nestjs/common';
import { ApiBearerAuth, ApiTags, ApiOperation } from '@nestjs/swagger';
import { Permissions, type AttainmentView } from '@media/contracts';
import { ApiErrors, ApiSuccess, CurrentUser, RequireAnyPermission } from '@media/http';
import type { AuthUser } from '@media/core';
import { AttainmentService } from './attainment.service';
import { AttainmentQuery } from './dto/attainment.query';
import { AttainmentResponse } from './dto/attainment.response';

@ApiTags('commissions')
@ApiBearerAuth()
@Controller('api/v1/commissions')
export class AttainmentController {
  constructor(@Inject(AttainmentService) private readonly attainment: AttainmentService) {}

  @Get('cm-team-attainment')
  @ApiOperation({ summary: 'Team commission attainment for a month' })
  @RequireAnyPermission(Permissions.commissionsRead, Permissions.commissionsReadAll)
  @ApiSuccess(AttainmentResponse, {
    list: 'array',
    description:
      'One row per (BM, category) with a target or collections in the month, by bm_name, category.',
  })
  @ApiErrors(401, 403, 422, 503)
  get(@Query() query: AttainmentQuery, @CurrentUser() caller: AuthUser): Promise<AttainmentView[]> {
    return this.attainment.attainment(query, caller);
  }
}
