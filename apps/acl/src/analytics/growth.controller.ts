import { Controller, Get, Inject, Query } from '@nestjs/common';
import { ApiBearerAuth, ApiTags } from '@nestjs/swagger';
import { Permissions } from '@media/contracts';
import { RequirePermissions } from '@media/platform';
import { GrowthQuery } from './dto/growth.query';
import { GrowthService } from './growth.service';

@ApiTags('analytics')
@ApiBearerAuth()
@Controller('api/v1/analytics')
export class GrowthController {
  constructor(@Inject(GrowthService) private readonly growth: GrowthService) {}

  /** Endpoint 13. */
  @Get('growth')
  @RequirePermissions(Permissions.analyticsGrowth)
  series(@Query() query: GrowthQuery) {
    return this.growth.series(query);
  }
}
