import { ApiProperty } from '@nestjs/swagger';
import type { CommissionTargetView } from '@media/contracts';
import { PageDto, PageQuery } from '@media/platform';
import {
  BmIdField,
  BmIdFilter,
  CategoryField,
  CategoryFilter,
  MoneyField,
  MonthField,
  YearField,
} from '../../http/fields';

/** `POST /payment/api/v1/commissions/targets`: upsert on (bm_id, category, month, year) (docs/api/contract.md §4a). */
export class UpsertTargetDto {
  @BmIdField()
  bm_id!: string;

  @CategoryField()
  category!: string;

  @MonthField()
  month!: number;

  @YearField()
  year!: number;

  @MoneyField(0, '10000.00')
  target_amount!: string;
}

/** `GET /payment/api/v1/commissions/targets`: newest first, then id; optional filters. */
export class ListTargetsQuery extends PageQuery {
  @BmIdFilter()
  bm_id?: string;

  @CategoryFilter()
  category?: string;

  @MonthField({ optional: true })
  month?: number;

  @YearField({ optional: true })
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

export class TargetPageDto extends PageDto(TargetDto) {}
