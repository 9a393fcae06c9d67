import { ApiPropertyOptional } from '@nestjs/swagger';
import { IsIn } from 'class-validator';
import { BOOKING_PLATFORMS, type BookingPlatform } from '@media/contracts';
import { IsDateOnly, Optional } from '@media/kernel';

/** `GET /inventory/api/v1/analytics/revenue-summary` (the revenue summary). */
export class RevenueQuery {
  @ApiPropertyOptional({
    format: 'date',
    description: "Inclusive, on the order's created_at (UTC); default: the first day of the current month",
  })
  @Optional()
  @IsDateOnly()
  date_from?: string;

  @ApiPropertyOptional({
    format: 'date',
    description: 'Inclusive; default: the last day of the current month',
  })
  @Optional()
  @IsDateOnly()
  date_to?: string;

  @ApiPropertyOptional({ enum: BOOKING_PLATFORMS })
  @Optional()
  @IsIn(BOOKING_PLATFORMS)
  platform?: BookingPlatform;
}
