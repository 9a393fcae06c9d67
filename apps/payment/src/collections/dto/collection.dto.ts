import { ApiProperty, ApiPropertyOptional } from '@nestjs/swagger';
import type { CollectionView } from '@media/contracts';
import { IsDateTime, Optional, PageDto, PageQuery } from '@media/platform';
import { BmIdField, BmIdFilter, CategoryField, CategoryFilter, MoneyField } from '../../http/fields';

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

export class CollectionDto implements CollectionView {
  @ApiProperty({ format: 'uuid' }) id!: string;
  @ApiProperty({ format: 'uuid' }) bm_id!: string;
  @ApiProperty() category!: string;
  @ApiProperty({ example: '1250.00' }) amount!: string;
  @ApiProperty({ format: 'date-time' }) collected_at!: string;
  @ApiProperty({ format: 'date-time' }) created_at!: string;
}

export class CollectionPageDto extends PageDto(CollectionDto) {}
