import { ApiProperty } from '@nestjs/swagger';
import type { TopClientView } from '@media/contracts';

export class TopClientResponse implements TopClientView {
  @ApiProperty() client_name!: string;
  @ApiProperty() category!: string;
  @ApiProperty({ description: "The client's WON deals in the period" }) deal_count!: number;
  @ApiProperty({ example: '1250.00' }) total_contracted_revenue!: string;
  @ApiProperty({
    type: String,
    nullable: true,
    example: '42.50',
    description: "Share of the returned rows' total; the values sum to exactly 100.00",
  })
  revenue_share_pct!: string | null;
}
