import { ApiProperty, ApiPropertyOptional } from '@nestjs/swagger';
import { Transform } from 'class-transformer';
import { IsOptional, IsString, IsUUID, MaxLength, MinLength, IsDefined } from 'class-validator';
import type { CollectionView } from '@media/contracts';
import { IsDateTime, IsMoney, PageQuery, ToDecimalString } from '@media/platform';

/** `POST /payment/api/v1/collections` (CONTRACT §4a). */
export class CreateCollectionDto {
  @ApiProperty({ format: 'uuid', description: 'A user known to acl' })
  @IsUUID('all')
  bm_id!: string;

  @ApiProperty({ minLength: 1, maxLength: 100 })
  @Transform(({ value }: { value: unknown }) => (typeof value === 'string' ? value.trim() : value))
  @IsString()
  @MinLength(1)
  @MaxLength(100)
  category!: string;

  @ApiProperty({ type: String, example: '1250.00', description: 'Decimal text or a JSON number, >= 0.01' })
  @IsDefined()
  @ToDecimalString()
  @IsMoney({ min: 0.01 })
  amount!: string;

  @ApiPropertyOptional({ format: 'date-time', description: 'Default: now' })
  @IsOptional()
  @IsDateTime()
  collected_at?: string;
}

/** `GET /payment/api/v1/collections`: latest collected_at first, then id; optional filters. */
export class ListCollectionsQuery extends PageQuery {
  @ApiPropertyOptional({ format: 'uuid' })
  @IsOptional()
  @IsUUID('all')
  bm_id?: string;

  @ApiPropertyOptional()
  @IsOptional()
  @IsString()
  @MaxLength(100)
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

export class CollectionPageDto {
  @ApiProperty({ type: [CollectionDto] }) results!: CollectionDto[];
  @ApiProperty({ type: String, nullable: true, format: 'uri' }) next!: string | null;
  @ApiProperty({ type: String, nullable: true, format: 'uri' }) previous!: string | null;
}
