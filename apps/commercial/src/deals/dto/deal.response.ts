import { ApiProperty } from '@nestjs/swagger';
import { DEAL_STATUSES, type DealStatus, type DealView } from '@media/contracts';

export class DealResponse implements DealView {
  @ApiProperty({ format: 'uuid' }) id!: string;
  @ApiProperty({ format: 'uuid' }) client_id!: string;
  @ApiProperty({ example: '1250.00' }) contracted_revenue!: string;
  @ApiProperty({ format: 'date' }) contract_date!: string;
  @ApiProperty({ enum: DEAL_STATUSES }) status!: DealStatus;
  @ApiProperty({ format: 'date-time' }) created_at!: string;
  @ApiProperty({ format: 'date-time' }) updated_at!: string;
}
