import { Controller, Get, Inject, Query } from '@nestjs/common';
import { ApiBearerAuth, ApiOperation, ApiTags } from '@nestjs/swagger';
import { Permissions, type RevenueSummaryView } from '@media/contracts';
import { ApiErrors, ApiSuccess, RequirePermissions } from '@media/http';
import { RevenueQuery } from './dto/revenue.query';
import { RevenueSummaryResponse } from './dto/revenue.response';
import { RevenueService } from './revenue.service';

@ApiTags('analytics')
@ApiBearerAuth()
@Controller('api/v1/analytics')
export class RevenueController {
  constructor(@Inject(RevenueService) private readonly revenue: RevenueService) {}

  @Get('revenue-summary')
  @ApiOperation({ summary: 'Revenue, erosion and trend for a date range' })
  @RequirePermissions(Permissions.analyticsRevenue)
  @ApiSuccess(RevenueSummaryResponse)
  @ApiErrors(401, 403, [422, 'Bad dates, an inverted range or an unknown platform'])
  summary(@Query() query: RevenueQuery): Promise<RevenueSummaryView> {
    return this.revenue.summary(query);
  }
}
