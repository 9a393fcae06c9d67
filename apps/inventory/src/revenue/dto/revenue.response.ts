import { ApiProperty } from '@nestjs/swagger';
import { BOOKING_PLATFORMS } from '@media/contracts';

class FiguresBody {
  @ApiProperty({ example: '1250.00' }) rate_card!: string;
  @ApiProperty({ example: '1000.00' }) booked!: string;
  @ApiProperty({ example: '250.00', description: 'rate_card - booked' }) erosion!: string;
  @ApiProperty({ type: String, nullable: true, example: '20.00', description: 'null when rate_card is 0' })
  erosion_pct!: string | null;
}

class TrendPointBody extends FiguresBody {
  @ApiProperty({ example: '2026-01' }) month!: string;
}

class CategoryBody extends FiguresBody {
  @ApiProperty() category!: string;
}

class PlatformBody extends FiguresBody {
  @ApiProperty({ enum: BOOKING_PLATFORMS }) platform!: string;
  @ApiProperty({ type: [CategoryBody] }) categories!: CategoryBody[];
}

/** Swagger schema of endpoint 10's body. */
export class RevenueSummaryBody {
  @ApiProperty({ type: FiguresBody }) totals!: FiguresBody;
  @ApiProperty({ type: [TrendPointBody], description: 'Every month of the range, zeros included' })
  trend!: TrendPointBody[];
  @ApiProperty({ type: [PlatformBody] }) breakdown!: PlatformBody[];
}
