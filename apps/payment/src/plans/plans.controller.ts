import { Body, Controller, Get, Inject, Post, Query, Req, Res } from '@nestjs/common';
import { ApiBearerAuth, ApiTags, ApiOperation } from '@nestjs/swagger';
import { Permissions, type CommissionPlanView } from '@media/contracts';
import { ApiErrors, ApiSuccess, Idempotent, type Page, RequirePermissions } from '@media/http';
import type { Request, Response } from 'express';
import { CreatePlanDto, ListPlansQuery } from './dto/plan.dto';
import { PlanResponse } from './dto/plan.response';
import { PlansService } from './plans.service';

@ApiTags('commissions')
@ApiBearerAuth()
@RequirePermissions(Permissions.commissionsReadAll)
@Controller('api/v1/commissions/plans')
export class PlansController {
  constructor(@Inject(PlansService) private readonly plans: PlansService) {}

  /** 201 for a category's first plan, 200 when it replaces the existing one. */
  @Post()
  @Idempotent()
  @ApiOperation({ summary: "Set a category's commission plan (200 when it replaces one)" })
  @ApiSuccess(PlanResponse, { status: 201, description: "The category's first plan." })
  @ApiSuccess(PlanResponse, { description: "The category's plan, replaced." })
  @ApiErrors(401, 403, 413, 415, 422)
  async replace(
    @Body() dto: CreatePlanDto,
    @Res({ passthrough: true }) res: Response,
  ): Promise<CommissionPlanView> {
    const { created, plan } = await this.plans.replace(dto);
    res.status(created ? 201 : 200);
    return plan;
  }

  @Get()
  @ApiOperation({ summary: 'List commission plans (cursor)' })
  @ApiSuccess(PlanResponse, { list: 'page', description: 'Plans by category (byte order), then id.' })
  @ApiErrors(401, 403, 422)
  list(@Query() query: ListPlansQuery, @Req() req: Request): Promise<Page<CommissionPlanView>> {
    return this.plans.list(query, req);
  }
}
