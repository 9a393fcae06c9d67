import { ApiProperty } from '@nestjs/swagger';
import type { CommissionPlanView, CommissionTierView } from '@media/contracts';

export class TierResponse implements CommissionTierView {
  @ApiProperty({ example: '100.00' }) min_achievement_pct!: string;
  @ApiProperty({ example: '5.50' }) rate_pct!: string;
}

export class PlanResponse implements CommissionPlanView {
  @ApiProperty({ format: 'uuid' }) id!: string;
  @ApiProperty() category!: string;
  @ApiProperty({ type: [TierResponse], description: 'By min_achievement_pct ascending' })
  tiers!: TierResponse[];
  @ApiProperty({ format: 'date-time' }) created_at!: string;
  @ApiProperty({ format: 'date-time' }) updated_at!: string;
}
