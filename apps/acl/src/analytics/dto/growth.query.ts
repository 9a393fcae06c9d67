import { ApiPropertyOptional } from '@nestjs/swagger';
import { IsIn, IsOptional } from 'class-validator';
import { IsDateOnly } from '@media/platform';
import { GROWTH_INTERVALS, type GrowthInterval } from '../growth-range';

/** `GET /acl/api/v1/analytics/growth` (endpoint 13). */
export class GrowthQuery {
  @ApiPropertyOptional({
    format: 'date',
    description: 'Default: the first day of the month eleven months ago',
  })
  @IsOptional()
  @IsDateOnly()
  date_from?: string;

  @ApiPropertyOptional({ format: 'date', description: 'Default: today (UTC)' })
  @IsOptional()
  @IsDateOnly()
  date_to?: string;

  @ApiPropertyOptional({ enum: GROWTH_INTERVALS, default: 'month' })
  @IsOptional()
  @IsIn(GROWTH_INTERVALS)
  interval?: GrowthInterval;
}
