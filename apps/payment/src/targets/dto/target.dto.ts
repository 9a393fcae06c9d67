import { ApiProperty, ApiPropertyOptional } from '@nestjs/swagger';
import { Transform } from 'class-transformer';
import {
  IsInt,
  IsOptional,
  IsString,
  IsUUID,
  Max,
  MaxLength,
  Min,
  MinLength,
  IsDefined,
} from 'class-validator';
import type { CommissionTargetView } from '@media/contracts';
import { IsMoney, PageQuery, ToDecimalString } from '@media/platform';

export const MIN_YEAR = 2020;
export const MAX_YEAR = 9999;

/** `POST /payment/api/v1/commissions/targets`: upsert on (bm_id, category, month, year) (CONTRACT §4a). */
export class UpsertTargetDto {
  @ApiProperty({ format: 'uuid', description: 'A user known to acl' })
  @IsUUID('all')
  bm_id!: string;

  @ApiProperty({ minLength: 1, maxLength: 100 })
  @Transform(({ value }: { value: unknown }) => (typeof value === 'string' ? value.trim() : value))
  @IsString()
  @MinLength(1)
  @MaxLength(100)
  category!: string;

  @ApiProperty({ minimum: 1, maximum: 12 })
  @IsInt()
  @Min(1)
  @Max(12)
  month!: number;

  @ApiProperty({ minimum: MIN_YEAR, maximum: MAX_YEAR })
  @IsInt()
  @Min(MIN_YEAR)
  @Max(MAX_YEAR)
  year!: number;

  @ApiProperty({ type: String, example: '10000.00', description: 'Decimal text or a JSON number, >= 0' })
  @IsDefined()
  @ToDecimalString()
  @IsMoney({ min: 0 })
  target_amount!: string;
}

/** `GET /payment/api/v1/commissions/targets`: newest first, then id; optional filters. */
export class ListTargetsQuery extends PageQuery {
  @ApiPropertyOptional({ format: 'uuid' })
  @IsOptional()
  @IsUUID('all')
  bm_id?: string;

  @ApiPropertyOptional()
  @IsOptional()
  @IsString()
  @MaxLength(100)
  category?: string;

  @ApiPropertyOptional({ minimum: 1, maximum: 12 })
  @IsOptional()
  @IsInt()
  @Min(1)
  @Max(12)
  month?: number;

  @ApiPropertyOptional({ minimum: MIN_YEAR, maximum: MAX_YEAR })
  @IsOptional()
  @IsInt()
  @Min(MIN_YEAR)
  @Max(MAX_YEAR)
  year?: number;
}

export class TargetDto implements CommissionTargetView {
  @ApiProperty({ format: 'uuid' }) id!: string;
  @ApiProperty({ format: 'uuid' }) bm_id!: string;
  @ApiProperty() category!: string;
  @ApiProperty() month!: number;
  @ApiProperty() year!: number;
  @ApiProperty({ example: '10000.00' }) target_amount!: string;
  @ApiProperty({ format: 'date-time' }) created_at!: string;
  @ApiProperty({ format: 'date-time' }) updated_at!: string;
}

export class TargetPageDto {
  @ApiProperty({ type: [TargetDto] }) results!: TargetDto[];
  @ApiProperty({ type: String, nullable: true, format: 'uri' }) next!: string | null;
  @ApiProperty({ type: String, nullable: true, format: 'uri' }) previous!: string | null;
}
