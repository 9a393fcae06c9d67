import { ApiProperty } from '@nestjs/swagger';
import type { CollectionView } from '@media/contracts';

export class CollectionResponse implements CollectionView {
  @ApiProperty({ format: 'uuid' }) id!: string;
  @ApiProperty({ format: 'uuid' }) bm_id!: string;
  @ApiProperty() category!: string;
  @ApiProperty({ example: '1250.00' }) amount!: string;
  @ApiProperty({ format: 'date-time' }) collected_at!: string;
  @ApiProperty({ format: 'date-time' }) created_at!: string;
}
