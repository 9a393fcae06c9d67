import { Controller, Get, Inject, Query } from '@nestjs/common';
import { ApiBearerAuth, ApiOperation, ApiTags } from '@nestjs/swagger';
import { Permissions } from '@media/contracts';
import { ApiErrors, ApiSuccess, RequirePermissions } from '@media/http';
import { GrowthResponse } from './dto/growth.response';
import { GrowthQuery } from './dto/growth.query';
import { GrowthService } from './growth.service';
import type { GrowthSeries } from './growth.view';

@ApiTags('analytics')
@ApiBearerAuth()
@Controller('api/v1/analytics')
export class GrowthController {
  constructor(@Inject(GrowthService) private readonly growth: GrowthService) {}

  @Get('growth')
  @RequirePermissions(Permissions.analyticsGrowth)
  @ApiOperation({ summary: 'New users per day, week or month' })
  @ApiSuccess(GrowthResponse)
  @ApiErrors(401, 403, 422)
  series(@Query() query: GrowthQuery): Promise<GrowthSeries> {
    return this.growth.series(query);
  }
}
