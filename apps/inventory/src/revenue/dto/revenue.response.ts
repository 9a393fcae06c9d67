import { ApiProperty } from '@nestjs/swagger';
import { BOOKING_PLATFORMS } from '@media/contracts';

class FiguresResponse {
  @ApiProperty({ example: '1250.00' }) rate_card!: string;
  @ApiProperty({ example: '1000.00' }) booked!: string;
  @ApiProperty({ example: '250.00', description: 'rate_card - booked' }) erosion!: string;
  @ApiProperty({ type: String, nullable: true, example: '20.00', description: 'null when rate_card is 0' })
  erosion_pct!: string | null;
}

class TrendPointResponse extends FiguresResponse {
  @ApiProperty({ example: '2026-01' }) month!: string;
}

class CategoryResponse extends FiguresResponse {
  @ApiProperty() category!: string;
}

class PlatformResponse extends FiguresResponse {
  @ApiProperty({ enum: BOOKING_PLATFORMS }) platform!: string;
  @ApiProperty({ type: [CategoryResponse] }) categories!: CategoryResponse[];
}

/** Swagger schema of the revenue summary's body. */
export class RevenueSummaryResponse {
  @ApiProperty({ type: FiguresResponse }) totals!: FiguresResponse;
  @ApiProperty({ type: [TrendPointResponse], description: 'Every month of the range, zeros included' })
  trend!: TrendPointResponse[];
  @ApiProperty({ type: [PlatformResponse] }) breakdown!: PlatformResponse[];
}
