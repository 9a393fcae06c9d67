import { ApiProperty } from '@nestjs/swagger';
import type { CommissionTargetView } from '@media/contracts';

export class TargetResponse implements CommissionTargetView {
  @ApiProperty({ format: 'uuid' }) id!: string;
  @ApiProperty({ format: 'uuid' }) bm_id!: string;
  @ApiProperty() category!: string;
  @ApiProperty() month!: number;
  @ApiProperty() year!: number;
  @ApiProperty({ example: '10000.00' }) target_amount!: string;
  @ApiProperty({ format: 'date-time' }) created_at!: string;
  @ApiProperty({ format: 'date-time' }) updated_at!: string;
}
