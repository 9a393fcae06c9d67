import { ApiPropertyOptional } from '@nestjs/swagger';
import { IsIn } from 'class-validator';
import { IsDateOnly, Optional } from '@media/kernel';
import { GROWTH_INTERVALS, type GrowthInterval } from '../growth-range';

/** `GET /acl/api/v1/analytics/growth` (the growth series). */
export class GrowthQuery {
  @ApiPropertyOptional({
    format: 'date',
    description: 'Default: the first day of the month eleven months ago',
  })
  @Optional()
  @IsDateOnly()
  date_from?: string;

  @ApiPropertyOptional({ format: 'date', description: 'Default: today (UTC)' })
  @Optional()
  @IsDateOnly()
  date_to?: string;

  @ApiPropertyOptional({ enum: GROWTH_INTERVALS, default: 'month' })
  @Optional()
  @IsIn(GROWTH_INTERVALS)
  interval?: GrowthInterval;
}
