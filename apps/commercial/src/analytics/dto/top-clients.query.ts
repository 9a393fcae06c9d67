import { ApiPropertyOptional } from '@nestjs/swagger';
import { IsInt, IsString } from 'class-validator';
import { contractConstraint, Optional } from '@media/kernel';
import { resolvePeriod } from '../sales-period';

/** A period resolvePeriod accepts today: the three formats, and no future year to date. */
const IsSalesPeriod = () =>
  contractConstraint(
    'isSalesPeriod',
    'value_error',
    'Input should be a period: YYYY-MM, Qn-YYYY or YTD-YYYY (not a future year)',
    (value) => {
      try {
        resolvePeriod(String(value), new Date());
        return true;
      } catch {
        return false;
      }
    },
  );

/** `GET /commercial/api/v1/analytics/sales/top-clients` (top clients). */
export class TopClientsQuery {
  @ApiPropertyOptional({ type: Number, default: 10, description: 'An integer, clamped to 1..50' })
  @Optional()
  @IsInt()
  limit?: number;

  @ApiPropertyOptional({
    description: '`YYYY-MM`, `Qn-YYYY` or `YTD-YYYY` (case-sensitive). Default: the current UTC month',
    example: 'YTD-2026',
  })
  @Optional()
  @IsString()
  @IsSalesPeriod()
  period?: string;
}
