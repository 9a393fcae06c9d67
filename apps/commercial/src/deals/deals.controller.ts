import { Body, Controller, Get, Inject, Post, Query, Req } from '@nestjs/common';
import { ApiBearerAuth, ApiCreatedResponse, ApiOkResponse, ApiTags, ApiOperation } from '@nestjs/swagger';
import { Permissions, type DealView } from '@media/contracts';
import { Idempotent, ApiErrors, RequirePermissions, type Page } from '@media/platform';
import type { Request } from 'express';
import { DealsService } from './deals.service';
import { CreateDealDto, DealDto, DealPageDto, ListDealsQuery } from './dto/deal.dto';

@ApiTags('deals')
@ApiBearerAuth()
@RequirePermissions(Permissions.analyticsSales)
@Controller('api/v1/deals')
export class DealsController {
  constructor(@Inject(DealsService) private readonly deals: DealsService) {}

  @Post()
  @Idempotent()
  @ApiOperation({ summary: 'Record a deal' })
  @ApiCreatedResponse({ type: DealDto, description: 'The created deal.' })
  @ApiErrors(401, 403, 413, 415, 422)
  create(@Body() dto: CreateDealDto): Promise<DealView> {
    return this.deals.create(dto);
  }

  @Get()
  @ApiOperation({ summary: 'List deals (cursor)' })
  @ApiOkResponse({ type: DealPageDto, description: 'Deals, latest contract_date first, then id.' })
  @ApiErrors(401, 403, 422)
  list(@Query() query: ListDealsQuery, @Req() req: Request): Promise<Page<DealView>> {
    return this.deals.list(query, req);
  }
}
