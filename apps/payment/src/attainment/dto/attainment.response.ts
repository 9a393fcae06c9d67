import { ApiProperty } from '@nestjs/swagger';
import type { AttainmentView } from '@media/contracts';

export class AttainmentResponse implements AttainmentView {
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
