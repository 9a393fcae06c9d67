import { Controller, Get, Inject, Query } from '@nestjs/common';
import {
  ApiBearerAuth,
  ApiForbiddenResponse,
  ApiOkResponse,
  ApiTags,
  ApiUnauthorizedResponse,
  ApiUnprocessableEntityResponse,
} from '@nestjs/swagger';
import { Permissions, type RevenueSummary } from '@media/contracts';
import { RequirePermissions } from '@media/platform';
import { RevenueQuery } from './dto/revenue.query';
import { RevenueSummaryBody } from './dto/revenue.views';
import { RevenueService } from './revenue.service';

@ApiTags('analytics')
@ApiBearerAuth()
@Controller('api/v1/analytics')
export class RevenueController {
  constructor(@Inject(RevenueService) private readonly revenue: RevenueService) {}

  /** Endpoint 10. */
  @Get('revenue-summary')
  @RequirePermissions(Permissions.analyticsRevenue)
  @ApiOkResponse({ type: RevenueSummaryBody })
  @ApiUnauthorizedResponse({ description: 'Missing or invalid token' })
  @ApiForbiddenResponse({ description: 'analytics:revenue missing' })
  @ApiUnprocessableEntityResponse({ description: 'Bad dates, an inverted range or an unknown platform' })
  summary(@Query() query: RevenueQuery): Promise<RevenueSummary> {
    return this.revenue.summary(query);
  }
}
