import type { ValidationOptions } from 'class-validator';
import { contractConstraint } from '@media/kernel';

const PERCENT = /^\d{1,5}(\.\d{1,2})?$/;

/**
 * A percentage as decimal text or a JSON number (normalised by ToDecimalString): at most two
 * fraction digits, from 0 to `max` (docs/api/contract.md §3).
 */
export function IsPercent(max: number, options?: ValidationOptions) {
  return contractConstraint(
    'isPercent',
    'decimal_parsing',
    `Input should be a decimal from 0 to ${max} with at most two fraction digits`,
    (value) => typeof value === 'string' && PERCENT.test(value) && Number(value) <= max,
    options,
  );
}
