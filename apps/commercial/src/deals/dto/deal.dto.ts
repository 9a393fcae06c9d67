import { ApiProperty, ApiPropertyOptional } from '@nestjs/swagger';
import { IsIn, IsUUID, IsDefined } from 'class-validator';
import { DEAL_STATUSES, type DealStatus } from '@media/contracts';
import { IsDateOnly, IsMoney, Optional, ToDecimalString } from '@media/kernel';
import { PageQuery } from '@media/http';

/** `POST /commercial/api/v1/deals` (docs/api/contract.md §4a). */
export class CreateDealDto {
  @ApiProperty({ format: 'uuid' })
  @IsUUID('all')
  client_id!: string;

  @ApiProperty({ type: String, example: '1250.00', description: 'Decimal text or a JSON number, >= 0' })
  @IsDefined()
  @ToDecimalString()
  @IsMoney({ min: 0 })
  contracted_revenue!: string;

  @ApiPropertyOptional({ format: 'date', description: 'Default: today (UTC)' })
  @Optional()
  @IsDateOnly()
  contract_date?: string;

  @ApiPropertyOptional({ enum: DEAL_STATUSES, default: 'WON' })
  @Optional()
  @IsIn(DEAL_STATUSES)
  status?: DealStatus;
}

/** `GET /commercial/api/v1/deals`: newest contract_date first, then id; optionally one client's or one status. */
export class ListDealsQuery extends PageQuery {
  @ApiPropertyOptional({ format: 'uuid' })
  @Optional()
  @IsUUID('all')
  client_id?: string;

  @ApiPropertyOptional({ enum: DEAL_STATUSES })
  @Optional()
  @IsIn(DEAL_STATUSES)
  status?: DealStatus;
}
