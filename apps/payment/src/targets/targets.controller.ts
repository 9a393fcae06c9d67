import { Body, Controller, Get, Inject, Post, Query, Req, Res } from '@nestjs/common';
import { ApiBearerAuth, ApiTags, ApiOperation } from '@nestjs/swagger';
import { Permissions, type CommissionTargetView } from '@media/contracts';
import { ApiErrors, ApiSuccess, Idempotent, type Page, RequirePermissions } from '@media/http';
import type { Request, Response } from 'express';
import { ListTargetsQuery, UpsertTargetDto } from './dto/target.dto';
import { TargetResponse } from './dto/target.response';
import { TargetsService } from './targets.service';

@ApiTags('commissions')
@ApiBearerAuth()
@RequirePermissions(Permissions.commissionsReadAll)
@Controller('api/v1/commissions/targets')
export class TargetsController {
  constructor(@Inject(TargetsService) private readonly targets: TargetsService) {}

  /** 201 when the (bm, category, month, year) target is new, 200 when it updates it. */
  @Post()
  @Idempotent()
  @ApiOperation({ summary: "Set a BM's monthly target (200 when it updates one)" })
  @ApiSuccess(TargetResponse, { status: 201, description: 'A new target.' })
  @ApiSuccess(TargetResponse, { description: 'The existing target, updated.' })
  @ApiErrors(401, 403, 413, 415, 422, 503)
  async upsert(
    @Body() dto: UpsertTargetDto,
    @Res({ passthrough: true }) res: Response,
  ): Promise<CommissionTargetView> {
    const { created, target } = await this.targets.upsert(dto);
    res.status(created ? 201 : 200);
    return target;
  }

  @Get()
  @ApiOperation({ summary: 'List targets (cursor)' })
  @ApiSuccess(TargetResponse, { list: 'page', description: 'Targets, newest first, then id.' })
  @ApiErrors(401, 403, 422)
  list(@Query() query: ListTargetsQuery, @Req() req: Request): Promise<Page<CommissionTargetView>> {
    return this.targets.list(query, req);
  }
}
