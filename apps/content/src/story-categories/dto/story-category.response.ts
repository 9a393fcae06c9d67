import { ApiProperty } from '@nestjs/swagger';
import type { StoryCategoryView } from '@media/contracts';

export class StoryCategoryResponse implements StoryCategoryView {
  @ApiProperty({ format: 'uuid' })
  id!: string;

  @ApiProperty()
  name!: string;

  @ApiProperty({ type: String, nullable: true })
  description!: string | null;

  @ApiProperty({ format: 'date-time' })
  created_at!: string;

  @ApiProperty({ format: 'date-time' })
  updated_at!: string;
}
