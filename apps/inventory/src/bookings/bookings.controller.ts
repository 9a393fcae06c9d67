import { Body, Controller, Get, HttpCode, Inject, Param, Patch, Post, Query, Req } from '@nestjs/common';
import { ApiBearerAuth, ApiOperation, ApiTags } from '@nestjs/swagger';
import {
  Permissions,
  type BookingLineView,
  type BookingSummaryView,
  type BookingView,
  type LineAssetView,
} from '@media/contracts';
import {
  Idempotent,
  ApiErrors,
  ApiSuccess,
  CurrentUser,
  JsonOnly,
  RequirePermissions,
  type ErrorStatus,
  type Page,
} from '@media/http';
import type { AuthUser } from '@media/core';
import type { Request } from 'express';
import { AssetsService } from './assets.service';
import { BookingsService } from './bookings.service';
import { CreateAssetDto, UpdateAssetDto } from './dto/asset.dto';
import {
  AssetParams,
  CreateBookingDto,
  CreateLineDto,
  LineParams,
  ListBookingsQuery,
  ListLinesQuery,
  OrderParams,
  UpdateBookingDto,
  UpdateLineDto,
} from './dto/booking.dto';
import {
  BookingLineResponse,
  BookingResponse,
  BookingSummaryResponse,
  LineAssetResponse,
} from './dto/booking.response';

const NOT_UNDER_PARENT: ErrorStatus = [404, 'Unknown id, or an id not under its parent (never a leak)'];
const JSON_ONLY: ErrorStatus = [415, 'A body other than JSON'];
const LINE_WRITE_ERRORS: ErrorStatus[] = [
  401,
  403,
  NOT_UNDER_PARENT,
  [409, '`booking_cancelled`'],
  413,
  JSON_ONLY,
  422,
];
const ASSET_WRITE_ERRORS: ErrorStatus[] = [
  401,
  403,
  NOT_UNDER_PARENT,
  413,
  JSON_ONLY,
  [422, 'Invalid body, or an unknown document_id'],
  [503, 'documents did not answer'],
];

@ApiTags('bookings')
@ApiBearerAuth()
@Controller('api/v1/bookings')
export class BookingsController {
  constructor(
    @Inject(BookingsService) private readonly bookings: BookingsService,
    @Inject(AssetsService) private readonly assets: AssetsService,
  ) {}

  @Post()
  @Idempotent()
  @ApiOperation({ summary: 'Create a booking' })
  @JsonOnly()
  @RequirePermissions(Permissions.bookingsWrite)
  @ApiSuccess(BookingResponse, { status: 201 })
  @ApiErrors(401, 403, [409, '`booking_reference_taken`'], 413, JSON_ONLY, 422)
  create(@Body() dto: CreateBookingDto, @CurrentUser() user: AuthUser): Promise<BookingView> {
    return this.bookings.create(dto, user);
  }

  @Get()
  @ApiOperation({ summary: 'List bookings (cursor)' })
  @RequirePermissions(Permissions.bookingsRead)
  @ApiSuccess(BookingSummaryResponse, { list: 'page' })
  @ApiErrors(401, 403, 422)
  list(@Query() query: ListBookingsQuery, @Req() req: Request): Promise<Page<BookingSummaryView>> {
    return this.bookings.list(query, req);
  }

  /** A booking with its lines and their assets. */
  @Get(':order_id')
  @ApiOperation({ summary: 'Get a booking with its lines and their assets' })
  @RequirePermissions(Permissions.bookingsRead)
  @ApiSuccess(BookingResponse)
  @ApiErrors(401, 403, NOT_UNDER_PARENT, 422)
  get(@Param() params: OrderParams): Promise<BookingView> {
    return this.bookings.get(params.order_id);
  }

  @Patch(':order_id')
  @ApiOperation({ summary: "Update a booking's status or client" })
  @JsonOnly()
  @RequirePermissions(Permissions.bookingsWrite)
  @ApiSuccess(BookingResponse)
  @ApiErrors(
    401,
    403,
    NOT_UNDER_PARENT,
    [409, '`invalid_status_transition`, naming the current status'],
    413,
    JSON_ONLY,
    422,
  )
  update(@Param() params: OrderParams, @Body() dto: UpdateBookingDto): Promise<BookingView> {
    return this.bookings.update(params.order_id, dto);
  }

  @Post(':order_id/lines')
  @Idempotent()
  @ApiOperation({ summary: 'Add a line to a booking' })
  @JsonOnly()
  @RequirePermissions(Permissions.bookingsWrite)
  @ApiSuccess(BookingLineResponse, { status: 201 })
  @ApiErrors(...LINE_WRITE_ERRORS)
  addLine(@Param() params: OrderParams, @Body() dto: CreateLineDto): Promise<BookingLineView> {
    return this.bookings.addLine(params.order_id, dto);
  }

  @Get(':order_id/lines')
  @ApiOperation({ summary: "List a booking's lines (cursor)" })
  @RequirePermissions(Permissions.bookingsRead)
  @ApiSuccess(BookingLineResponse, { list: 'page' })
  @ApiErrors(401, 403, NOT_UNDER_PARENT, 422)
  listLines(
    @Param() params: OrderParams,
    @Query() query: ListLinesQuery,
    @Req() req: Request,
  ): Promise<Page<BookingLineView>> {
    return this.bookings.listLines(params.order_id, query, req);
  }

  @Patch(':order_id/lines/:line_id')
  @ApiOperation({ summary: 'Update a line' })
  @JsonOnly()
  @RequirePermissions(Permissions.bookingsWrite)
  @ApiSuccess(BookingLineResponse)
  @ApiErrors(...LINE_WRITE_ERRORS)
  updateLine(@Param() params: LineParams, @Body() dto: UpdateLineDto): Promise<BookingLineView> {
    return this.bookings.updateLine(params.order_id, params.line_id, dto);
  }

  @Post(':order_id/lines/:line_id/assets')
  @Idempotent()
  @ApiOperation({ summary: 'Add an asset to a line' })
  @JsonOnly()
  @RequirePermissions(Permissions.bookingsWrite)
  @ApiSuccess(LineAssetResponse, { status: 201 })
  @ApiErrors(...ASSET_WRITE_ERRORS)
  createAsset(@Param() params: LineParams, @Body() dto: CreateAssetDto): Promise<LineAssetView> {
    return this.assets.create(params.order_id, params.line_id, dto);
  }

  @Patch(':order_id/lines/:line_id/assets/:asset_id')
  @ApiOperation({ summary: "Update a line's asset" })
  @HttpCode(200)
  @JsonOnly()
  @RequirePermissions(Permissions.bookingsWrite)
  @ApiSuccess(LineAssetResponse)
  @ApiErrors(...ASSET_WRITE_ERRORS)
  updateAsset(@Param() params: AssetParams, @Body() dto: UpdateAssetDto): Promise<LineAssetView> {
    return this.assets.update(params.order_id, params.line_id, params.asset_id, dto);
  }
}
