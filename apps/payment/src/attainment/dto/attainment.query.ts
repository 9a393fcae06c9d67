import { ApiProperty, ApiPropertyOptional } from '@nestjs/swagger';
import { IsInt, IsOptional, Max, Min } from 'class-validator';
import type { AttainmentRow } from '@media/contracts';

/** `GET /payment/api/v1/commissions/cm-team-attainment` (endpoint 9). */
export class AttainmentQuery {
  @ApiPropertyOptional({ minimum: 1, maximum: 12, description: 'Default: the current UTC month' })
  @IsOptional()
  @IsInt()
  @Min(1)
  @Max(12)
  month?: number;

  @ApiPropertyOptional({ minimum: 2020, maximum: 9999, description: 'Default: the current UTC year' })
  @IsOptional()
  @IsInt()
  @Min(2020)
  @Max(9999)
  year?: number;
}

export class AttainmentRowDto implements AttainmentRow {
  @ApiProperty({ format: 'uuid' }) bm_id!: string;
  @ApiProperty({ type: String, nullable: true, description: 'null only for a user acl no longer knows' })
  bm_name!: string | null;
  @ApiProperty({ type: String, nullable: true }) bm_email!: string | null;
  @ApiProperty({ type: String, nullable: true }) employee_number!: string | null;
  @ApiProperty() category!: string;
  @ApiProperty({ type: String, nullable: true, example: '10000.00' }) target_amount!: string | null;
  @ApiProperty({ example: '8000.00' }) collected_revenue!: string;
  @ApiProperty({ type: String, nullable: true, example: '80.00' }) achievement_pct!: string | null;
  @ApiProperty({ example: '3.25' }) commission_rate!: string;
  @ApiProperty({ example: '260.00' }) commission_amount!: string;
}
