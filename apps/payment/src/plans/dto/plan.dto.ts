import { ApiProperty } from '@nestjs/swagger';
import { Transform, Type } from 'class-transformer';
import {
  ArrayMaxSize,
  ArrayMinSize,
  IsArray,
  IsString,
  MaxLength,
  MinLength,
  ValidateNested,
  IsDefined,
} from 'class-validator';
import { PageQuery } from '@media/http';
import { ToDecimalString } from '@media/kernel';
import { IsPercent } from './percent';

export const MAX_TIERS = 20;

export class TierDto {
  @ApiProperty({
    type: String,
    example: '100.00',
    description: 'Achievement (0..10000%) from which the rate applies',
  })
  @IsDefined()
  @ToDecimalString()
  @IsPercent(10_000)
  min_achievement_pct!: string;

  @ApiProperty({ type: String, example: '5.50', description: 'Percent of collections, 0..100' })
  @IsDefined()
  @ToDecimalString()
  @IsPercent(100)
  rate_pct!: string;
}

/** `POST /payment/api/v1/commissions/plans`: replaces the category's plan (docs/api/contract.md §4a). */
export class CreatePlanDto {
  @ApiProperty({ minLength: 1, maxLength: 100 })
  @Transform(({ value }: { value: unknown }) => (typeof value === 'string' ? value.trim() : value))
  @IsString()
  @MinLength(1)
  @MaxLength(100)
  category!: string;

  @ApiProperty({ type: [TierDto], minItems: 1, maxItems: MAX_TIERS })
  @IsArray()
  @ArrayMinSize(1)
  @ArrayMaxSize(MAX_TIERS)
  @ValidateNested({ each: true })
  @Type(() => TierDto)
  tiers!: TierDto[];
}

/** `GET /payment/api/v1/commissions/plans`: by category (byte order), then id. */
export class ListPlansQuery extends PageQuery {}
