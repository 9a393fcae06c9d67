import { ApiProperty } from '@nestjs/swagger';
import type { GrowthRow, GrowthSeries } from '../growth.view';
import { GROWTH_INTERVALS, type GrowthInterval } from '../growth-range';

export class GrowthPointResponse implements GrowthRow {
  @ApiProperty({ format: 'date' }) period_start!: string;
  @ApiProperty({ minimum: 0 }) new_users!: number;
  @ApiProperty({ minimum: 0 }) cumulative_users!: number;
}

/** The growth series: new users per bucket, every bucket of the range present. */
export class GrowthResponse implements GrowthSeries {
  @ApiProperty({ enum: GROWTH_INTERVALS }) interval!: GrowthInterval;
  @ApiProperty({ format: 'date' }) date_from!: string;
  @ApiProperty({ format: 'date' }) date_to!: string;
  @ApiProperty({ minimum: 0 }) total_new_users!: number;
  @ApiProperty({ type: [GrowthPointResponse] }) series!: GrowthPointResponse[];
}
