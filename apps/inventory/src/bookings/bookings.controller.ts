import { Body, Controller, Get, HttpCode, Inject, Param, Patch, Post, Query, Req } from '@nestjs/common';
import {
  ApiBearerAuth,
  ApiConflictResponse,
  ApiCreatedResponse,
  ApiForbiddenResponse,
  ApiNotFoundResponse,
  ApiOkResponse,
  ApiServiceUnavailableResponse,
  ApiTags,
  ApiUnauthorizedResponse,
  ApiUnprocessableEntityResponse,
  ApiUnsupportedMediaTypeResponse,
} from '@nestjs/swagger';
import {
  Permissions,
  type BookingLineView,
  type BookingSummaryView,
  type BookingView,
  type LineAssetView,
} from '@media/contracts';
import { CurrentUser, JsonOnly, RequirePermissions, type AuthUser, type Page } from '@media/platform';
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
import { BookingBody, BookingLineBody, BookingPageBody, LineAssetBody, LinePageBody } from './dto/views';

@ApiTags('bookings')
@ApiBearerAuth()
// Every route may answer these; route-specific ones are on the routes.
@ApiUnauthorizedResponse({ description: 'Missing or invalid token' })
@ApiForbiddenResponse({ description: 'Permission missing' })
@ApiUnprocessableEntityResponse({ description: 'Validation failure `{detail: [...]}`' })
@ApiNotFoundResponse({ description: 'Unknown id, or an id not under its parent (never a leak)' })
@ApiUnsupportedMediaTypeResponse({ description: 'A write body other than JSON' })
@Controller('api/v1/bookings')
export class BookingsController {
  constructor(
    @Inject(BookingsService) private readonly bookings: BookingsService,
    @Inject(AssetsService) private readonly assets: AssetsService,
  ) {}

  @Post()
  @JsonOnly()
  @RequirePermissions(Permissions.bookingsWrite)
  @ApiCreatedResponse({ type: BookingBody })
  @ApiConflictResponse({ description: '`booking_reference_taken`' })
  create(@Body() dto: CreateBookingDto, @CurrentUser() user: AuthUser): Promise<BookingView> {
    return this.bookings.create(dto, user);
  }

  @Get()
  @RequirePermissions(Permissions.bookingsRead)
  @ApiOkResponse({ type: BookingPageBody })
  list(@Query() query: ListBookingsQuery, @Req() req: Request): Promise<Page<BookingSummaryView>> {
    return this.bookings.list(query, req);
  }

  /** Endpoint 12. */
  @Get(':order_id')
  @RequirePermissions(Permissions.bookingsRead)
  @ApiOkResponse({ type: BookingBody })
  get(@Param() params: OrderParams): Promise<BookingView> {
    return this.bookings.get(params.order_id);
  }

  @Patch(':order_id')
  @JsonOnly()
  @RequirePermissions(Permissions.bookingsWrite)
  @ApiOkResponse({ type: BookingBody })
  @ApiConflictResponse({ description: '`invalid_status_transition`, naming the current status' })
  update(@Param() params: OrderParams, @Body() dto: UpdateBookingDto): Promise<BookingView> {
    return this.bookings.update(params.order_id, dto);
  }

  @Post(':order_id/lines')
  @JsonOnly()
  @RequirePermissions(Permissions.bookingsWrite)
  @ApiCreatedResponse({ type: BookingLineBody })
  @ApiConflictResponse({ description: '`booking_cancelled`' })
  addLine(@Param() params: OrderParams, @Body() dto: CreateLineDto): Promise<BookingLineView> {
    return this.bookings.addLine(params.order_id, dto);
  }

  @Get(':order_id/lines')
  @RequirePermissions(Permissions.bookingsRead)
  @ApiOkResponse({ type: LinePageBody })
  listLines(
    @Param() params: OrderParams,
    @Query() query: ListLinesQuery,
    @Req() req: Request,
  ): Promise<Page<BookingLineView>> {
    return this.bookings.listLines(params.order_id, query, req);
  }

  @Patch(':order_id/lines/:line_id')
  @JsonOnly()
  @RequirePermissions(Permissions.bookingsWrite)
  @ApiOkResponse({ type: BookingLineBody })
  @ApiConflictResponse({ description: '`booking_cancelled`' })
  updateLine(@Param() params: LineParams, @Body() dto: UpdateLineDto): Promise<BookingLineView> {
    return this.bookings.updateLine(params.order_id, params.line_id, dto);
  }

  @Post(':order_id/lines/:line_id/assets')
  @JsonOnly()
  @RequirePermissions(Permissions.bookingsWrite)
  @ApiCreatedResponse({ type: LineAssetBody })
  @ApiServiceUnavailableResponse({ description: 'documents did not answer' })
  createAsset(@Param() params: LineParams, @Body() dto: CreateAssetDto): Promise<LineAssetView> {
    return this.assets.create(params.order_id, params.line_id, dto);
  }

  /** Endpoint 5. */
  @Patch(':order_id/lines/:line_id/assets/:asset_id')
  @HttpCode(200)
  @JsonOnly()
  @RequirePermissions(Permissions.bookingsWrite)
  @ApiOkResponse({ type: LineAssetBody })
  @ApiServiceUnavailableResponse({ description: 'documents did not answer' })
  updateAsset(@Param() params: AssetParams, @Body() dto: UpdateAssetDto): Promise<LineAssetView> {
    return this.assets.update(params.order_id, params.line_id, params.asset_id, dto);
  }
}
