import { ApiPropertyOptional } from '@nestjs/swagger';
import { IsDateTime, Optional } from '@media/kernel';
import { PageQuery } from '@media/http';
import { BmIdField, BmIdFilter, CategoryField, CategoryFilter, MoneyField } from '../../targets/dto/fields';

/** `POST /payment/api/v1/collections` (docs/api/contract.md §4a). */
export class CreateCollectionDto {
  @BmIdField()
  bm_id!: string;

  @CategoryField()
  category!: string;

  @MoneyField(0.01, '1250.00')
  amount!: string;

  @ApiPropertyOptional({ format: 'date-time', description: 'Default: now' })
  @Optional()
  @IsDateTime()
  collected_at?: string;
}

/** `GET /payment/api/v1/collections`: latest collected_at first, then id; optional filters. */
export class ListCollectionsQuery extends PageQuery {
  @BmIdFilter()
  bm_id?: string;

  @CategoryFilter()
  category?: string;
}
