import { PageQuery } from '@media/http';
import {
  BmIdField,
  BmIdFilter,
  CategoryField,
  CategoryFilter,
  MoneyField,
  MonthField,
  YearField,
} from './fields';

/** `POST /payment/api/v1/commissions/targets`: upsert on (bm_id, category, month, year) (docs/api/contract.md §4a). */
export class UpsertTargetDto {
  @BmIdField()
  bm_id!: string;

  @CategoryField()
  category!: string;

  @MonthField()
  month!: number;

  @YearField()
  year!: number;

  @MoneyField(0, '10000.00')
  target_amount!: string;
}

/** `GET /payment/api/v1/commissions/targets`: newest first, then id; optional filters. */
export class ListTargetsQuery extends PageQuery {
  @BmIdFilter()
  bm_id?: string;

  @CategoryFilter()
  category?: string;

  @MonthField({ optional: true })
  month?: number;

  @YearField({ optional: true })
  year?: number;
}
