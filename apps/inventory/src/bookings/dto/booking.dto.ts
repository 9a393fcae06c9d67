import { ApiProperty, ApiPropertyOptional } from '@nestjs/swagger';
import { Type } from 'class-transformer';
import {
  ArrayMaxSize,
  IsArray,
  IsIn,
  IsInt,
  IsUUID,
  Matches,
  Max,
  Min,
  ValidateNested,
} from 'class-validator';
import {
  BOOKING_PLATFORMS,
  BOOKING_STATUSES,
  type BookingPlatform,
  type BookingStatus,
} from '@media/contracts';
import { IsDateOnly, IsName, Nullable, Optional } from '@media/kernel';
import { PageQuery } from '@media/http';
import { Given, IsAmount, IsText, MAX_LINES_PER_CREATE, MAX_SPOTS } from './fields';

/** One line, as sent in a create or `POST .../lines`. */
export class CreateLineDto {
  @ApiProperty({ enum: BOOKING_PLATFORMS })
  @IsIn(BOOKING_PLATFORMS)
  platform!: BookingPlatform;

  @ApiProperty({ minLength: 1, maxLength: 100 })
  @IsText(1, 100)
  category!: string;

  @ApiProperty({ minLength: 1, maxLength: 100 })
  @IsText(1, 100)
  channel!: string;

  @ApiProperty({ format: 'date' })
  @IsDateOnly()
  start_date!: string;

  @ApiProperty({ format: 'date', description: 'On or after start_date' })
  @IsDateOnly()
  end_date!: string;

  @ApiProperty({ minimum: 1, maximum: MAX_SPOTS })
  @IsInt()
  @Min(1)
  @Max(MAX_SPOTS)
  spots!: number;

  @ApiProperty({ type: String, example: '1250.00', description: 'The line total at rate card' })
  @IsAmount()
  rate_card_amount!: string;

  @ApiProperty({ type: String, example: '1000.00', description: 'The line total as booked' })
  @IsAmount()
  booked_amount!: string;
}

/** `PATCH .../bookings/{order_id}/lines/{line_id}`: any of the line's fields, at least one. */
export class UpdateLineDto {
  @ApiPropertyOptional({ enum: BOOKING_PLATFORMS })
  @Given('platform')
  @IsIn(BOOKING_PLATFORMS)
  platform?: BookingPlatform;

  @ApiPropertyOptional({ minLength: 1, maxLength: 100 })
  @Given('category')
  @IsText(1, 100)
  category?: string;

  @ApiPropertyOptional({ minLength: 1, maxLength: 100 })
  @Given('channel')
  @IsText(1, 100)
  channel?: string;

  @ApiPropertyOptional({ format: 'date' })
  @Given('start_date')
  @IsDateOnly()
  start_date?: string;

  @ApiPropertyOptional({ format: 'date' })
  @Given('end_date')
  @IsDateOnly()
  end_date?: string;

  @ApiPropertyOptional({ minimum: 1, maximum: MAX_SPOTS })
  @Given('spots')
  @IsInt()
  @Min(1)
  @Max(MAX_SPOTS)
  spots?: number;

  @ApiPropertyOptional({ type: String, example: '1250.00' })
  @Given('rate_card_amount')
  @IsAmount()
  rate_card_amount?: string;

  @ApiPropertyOptional({ type: String, example: '1000.00' })
  @Given('booked_amount')
  @IsAmount()
  booked_amount?: string;
}

/** `POST /inventory/api/v1/bookings` (docs/api/contract.md §4a). */
export class CreateBookingDto {
  @ApiProperty({ minLength: 1, maxLength: 100, description: 'Unique' })
  @IsText(1, 100)
  reference!: string;

  @ApiProperty({ minLength: 1, maxLength: 255 })
  @IsText(1, 255)
  @IsName()
  client_name!: string;

  @ApiPropertyOptional({ type: String, minLength: 1, maxLength: 255, nullable: true })
  @Nullable()
  @IsText(1, 255)
  agency?: string | null;

  @ApiPropertyOptional({ default: 'USD', pattern: '^[A-Z]{3}$' })
  @Given('currency')
  @Matches(/^[A-Z]{3}$/, { message: 'Input should be a three-letter ISO 4217 code' })
  currency?: string;

  @ApiPropertyOptional({ enum: BOOKING_STATUSES, default: 'DRAFT' })
  @Given('status')
  @IsIn(BOOKING_STATUSES)
  status?: BookingStatus;

  @ApiPropertyOptional({ type: [CreateLineDto], maxItems: MAX_LINES_PER_CREATE })
  @Given('lines')
  @IsArray()
  @ArrayMaxSize(MAX_LINES_PER_CREATE)
  @ValidateNested({ each: true })
  @Type(() => CreateLineDto)
  lines?: CreateLineDto[];
}

/**
 * `PATCH /inventory/api/v1/bookings/{order_id}`: a status change (docs/api/contract.md §4.12) and/or the
 * client fields; at least one.
 */
export class UpdateBookingDto {
  @ApiPropertyOptional({ enum: BOOKING_STATUSES })
  @Given('status')
  @IsIn(BOOKING_STATUSES)
  status?: BookingStatus;

  @ApiPropertyOptional({ minLength: 1, maxLength: 255 })
  @Given('client_name')
  @IsText(1, 255)
  @IsName()
  client_name?: string;

  @ApiPropertyOptional({ type: String, minLength: 1, maxLength: 255, nullable: true })
  @Nullable()
  @IsText(1, 255)
  agency?: string | null;
}

/** `GET /inventory/api/v1/bookings`: newest first (created_at desc, id desc). */
export class ListBookingsQuery extends PageQuery {
  @ApiPropertyOptional({ enum: BOOKING_STATUSES })
  @Optional()
  @IsIn(BOOKING_STATUSES)
  status?: BookingStatus;

  @ApiPropertyOptional({ minLength: 1, maxLength: 255, description: 'Exact match' })
  @Optional()
  @IsText(1, 255)
  client_name?: string;

  @ApiPropertyOptional({ format: 'date', description: 'Created on or after this UTC day' })
  @Optional()
  @IsDateOnly()
  created_from?: string;

  @ApiPropertyOptional({ format: 'date', description: 'Created on or before this UTC day' })
  @Optional()
  @IsDateOnly()
  created_to?: string;
}

/** `GET .../bookings/{order_id}/lines`: in the order they were added. */
export class ListLinesQuery extends PageQuery {}

export class OrderParams {
  @IsUUID('all')
  order_id!: string;
}

// Not subclasses: class-validator reports a subclass's own fields first, and path errors
// should read in path order.
export class LineParams {
  @IsUUID('all')
  order_id!: string;

  @IsUUID('all')
  line_id!: string;
}

export class AssetParams {
  @IsUUID('all')
  order_id!: string;

  @IsUUID('all')
  line_id!: string;

  @IsUUID('all')
  asset_id!: string;
}
