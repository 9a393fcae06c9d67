import { MonthField, YearField } from '../../targets/dto/fields';

/** `GET /payment/api/v1/commissions/cm-team-attainment` (team attainment). */
export class AttainmentQuery {
  @MonthField({ optional: true, description: 'Default: the current UTC month' })
  month?: number;

  @YearField({ optional: true, description: 'Default: the current UTC year' })
  year?: number;
}
