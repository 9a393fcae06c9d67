import { Controller, Get, Inject, Query } from '@nestjs/common';
import { ApiBearerAuth, ApiTags, ApiOperation } from '@nestjs/swagger';
import { Permissions, type TopClientView } from '@media/contracts';
import { ApiErrors, ApiSuccess, RequirePermissions } from '@media/http';
import { TopClientResponse } from './dto/top-client.response';
import { TopClientsQuery } from './dto/top-clients.query';
import { TopClientsService } from './top-clients.service';

@ApiTags('analytics')
@ApiBearerAuth()
@Controller('api/v1/analytics/sales')
export class TopClientsController {
  constructor(@Inject(TopClientsService) private readonly sales: TopClientsService) {}

  @Get('top-clients')
  @ApiOperation({ summary: 'Top clients by WON revenue in a period' })
  @RequirePermissions(Permissions.analyticsSales)
  @ApiSuccess(TopClientResponse, {
    list: 'array',
    description: 'Clients ranked by WON revenue in the period, then name; `[]` for an empty period.',
  })
  @ApiErrors(401, 403, 422)
  topClients(@Query() query: TopClientsQuery): Promise<TopClientView[]> {
    return this.sales.topClients(query);
  }
}
