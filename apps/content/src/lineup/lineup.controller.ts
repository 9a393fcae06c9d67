import {
  Body,
  Controller,
  Delete,
  Get,
  Headers,
  HttpCode,
  Inject,
  Param,
  Post,
  Put,
  Query,
  Req,
  Res,
} from '@nestjs/common';
import { ApiBearerAuth, ApiBody, ApiExtraModels, ApiHeader, ApiTags, ApiOperation } from '@nestjs/swagger';
import { Permissions, type BroadcastScheduleView, type SlotView } from '@media/contracts';
import {
  Idempotent,
  ApiErrors,
  ApiNoContent,
  ApiSuccess,
  CurrentUser,
  Multipart,
  RequirePermissions,
  UploadedFiles,
  type Page,
  type UploadedFileInfo,
} from '@media/http';
import type { AuthUser } from '@media/core';
import type { Request, Response } from 'express';
import { AttachAssetDto } from './dto/attach-asset.dto';
import {
  ListSchedulesQuery,
  ListSlotsQuery,
  ScheduleIdParams,
  SlotAssetParams,
  SlotIdParams,
} from './dto/lineup.query';
import { BroadcastScheduleResponse, SlotDayCountResponse, SlotResponse } from './dto/lineup.response';
import { CreateScheduleDto, UpdateScheduleDto } from './dto/schedule.dto';
import { etagOf } from './lineup.view';
import { LineupService, type VersionedSchedule } from './lineup.service';
import { CSV_FIELD, uploadedCsv } from './uploads';

const ETAG_HEADER = { ETag: { description: 'Strong ETag `"<revision>"`', schema: { type: 'string' } } };

function withEtag(res: Response, versioned: VersionedSchedule): BroadcastScheduleView {
  res.setHeader('ETag', etagOf(versioned.revision));
  return versioned.schedule;
}

@ApiTags('lineup')
@ApiBearerAuth()
@ApiExtraModels(BroadcastScheduleResponse, SlotResponse, SlotDayCountResponse)
@Controller('api/v1/lineup')
export class LineupController {
  constructor(@Inject(LineupService) private readonly lineup: LineupService) {}

  /** docs/api/contract.md §4a: JSON (or a form) with `slots`, or multipart with a CSV `file`. */
  @Post()
  @Idempotent()
  @ApiOperation({ summary: 'Create a monthly schedule (JSON slots or a CSV file)' })
  @RequirePermissions(Permissions.lineupWrite)
  @Multipart({ files: [CSV_FIELD] })
  @ApiBody({
    schema: {
      allOf: [
        { $ref: '#/components/schemas/CreateScheduleDto' },
        {
          type: 'object',
          properties: {
            file: {
              type: 'string',
              format: 'binary',
              description: 'multipart only: CSV with header air_date,start_time,duration_seconds,title',
            },
          },
        },
      ],
    },
  })
  @ApiExtraModels(CreateScheduleDto)
  @ApiSuccess(BroadcastScheduleResponse, { status: 201, headers: ETAG_HEADER })
  @ApiErrors(401, 403, 413, 415, 422, 503)
  async create(
    @Body() body: unknown,
    @UploadedFiles() files: UploadedFileInfo[],
    @CurrentUser() caller: AuthUser,
    @Res({ passthrough: true }) res: Response,
  ): Promise<BroadcastScheduleView> {
    return withEtag(res, await this.lineup.create(body, await uploadedCsv(files), caller));
  }

  @Get()
  @ApiOperation({ summary: 'List schedules (cursor)' })
  @RequirePermissions(Permissions.lineupRead)
  @ApiSuccess(BroadcastScheduleResponse, { list: 'page', description: 'Newest month first' })
  @ApiErrors(401, 403, 422, 503)
  list(@Query() query: ListSchedulesQuery, @Req() req: Request): Promise<Page<BroadcastScheduleView>> {
    return this.lineup.list(query, req);
  }

  @Get(':id')
  @ApiOperation({ summary: 'Get one schedule (with its ETag)' })
  @RequirePermissions(Permissions.lineupRead)
  @ApiSuccess(BroadcastScheduleResponse, { headers: ETAG_HEADER })
  @ApiErrors(401, 403, 404, 422, 503)
  async get(
    @Param() params: ScheduleIdParams,
    @Res({ passthrough: true }) res: Response,
  ): Promise<BroadcastScheduleView> {
    return withEtag(res, await this.lineup.get(params.id));
  }

  @Put(':id')
  @ApiOperation({ summary: 'Update a schedule (If-Match)' })
  @RequirePermissions(Permissions.lineupWrite)
  @Multipart()
  @ApiHeader({ name: 'If-Match', required: false, description: 'The ETag last read; 412 when stale' })
  @ApiSuccess(BroadcastScheduleResponse, { headers: ETAG_HEADER })
  @ApiErrors(401, 403, 404, 412, 413, 415, 422, 503)
  async update(
    @Param() params: ScheduleIdParams,
    @Body() dto: UpdateScheduleDto,
    @Headers('if-match') ifMatch: string | undefined,
    @Res({ passthrough: true }) res: Response,
  ): Promise<BroadcastScheduleView> {
    return withEtag(res, await this.lineup.update(params.id, dto, ifMatch));
  }

  @Get(':id/slots')
  @ApiOperation({ summary: "List a schedule's slots (cursor)" })
  @RequirePermissions(Permissions.lineupRead)
  @ApiSuccess(SlotResponse, { list: 'page', description: 'By air_date, start_time, id' })
  @ApiErrors(401, 403, 404, 422)
  slots(
    @Param() params: ScheduleIdParams,
    @Query() query: ListSlotsQuery,
    @Req() req: Request,
  ): Promise<Page<SlotView>> {
    return this.lineup.slots(params.id, query, req);
  }

  @Post('slots/:slot_id/assets')
  @Idempotent()
  @ApiOperation({ summary: 'Attach a document to a slot' })
  @HttpCode(200)
  @RequirePermissions(Permissions.lineupWrite)
  @Multipart()
  @ApiSuccess(BroadcastScheduleResponse, { description: "The slot's whole schedule", headers: ETAG_HEADER })
  @ApiErrors(401, 403, 404, 413, 415, 422, 503)
  async attach(
    @Param() params: SlotIdParams,
    @Body() dto: AttachAssetDto,
    @CurrentUser() caller: AuthUser,
    @Res({ passthrough: true }) res: Response,
  ): Promise<BroadcastScheduleView> {
    return withEtag(res, await this.lineup.attach(params.slot_id, dto.document_id, caller));
  }

  @Delete('slots/:slot_id/assets/:document_id')
  @ApiOperation({ summary: 'Detach a document from a slot' })
  @HttpCode(204)
  @RequirePermissions(Permissions.lineupWrite)
  @ApiNoContent('Detached')
  @ApiErrors(401, 403, 404, 422)
  async detach(@Param() params: SlotAssetParams): Promise<void> {
    await this.lineup.detach(params.slot_id, params.document_id);
  }
}
