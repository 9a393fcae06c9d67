import { Body, Controller, Get, Inject, Post, Query, Req } from '@nestjs/common';
import { ApiBearerAuth, ApiTags, ApiOperation } from '@nestjs/swagger';
import { Permissions, type DealView } from '@media/contracts';
import { ApiErrors, ApiSuccess, Idempotent, type Page, RequirePermissions } from '@media/http';
import type { Request } from 'express';
import { DealsService } from './deals.service';
import { CreateDealDto, ListDealsQuery } from './dto/deal.dto';
import { DealResponse } from './dto/deal.response';

@ApiTags('deals')
@ApiBearerAuth()
@RequirePermissions(Permissions.analyticsSales)
@Controller('api/v1/deals')
export class DealsController {
  constructor(@Inject(DealsService) private readonly deals: DealsService) {}

  @Post()
  @Idempotent()
  @ApiOperation({ summary: 'Record a deal' })
  @ApiSuccess(DealResponse, { status: 201, description: 'The created deal.' })
  @ApiErrors(401, 403, 413, 415, 422)
  create(@Body() dto: CreateDealDto): Promise<DealView> {
    return this.deals.create(dto);
  }

  @Get()
  @ApiOperation({ summary: 'List deals (cursor)' })
  @ApiSuccess(DealResponse, { list: 'page', description: 'Deals, latest contract_date first, then id.' })
  @ApiErrors(401, 403, 422)
  list(@Query() query: ListDealsQuery, @Req() req: Request): Promise<Page<DealView>> {
    return this.deals.list(query, req);
  }
}
