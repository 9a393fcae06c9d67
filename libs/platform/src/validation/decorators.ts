import { Transform } from 'class-transformer';
import { registerDecorator, type ValidationOptions } from 'class-validator';

/** `YYYY-MM-DD` naming a real calendar day. */
export function isDateOnly(value: unknown): value is string {
  if (typeof value !== 'string' || !/^\d{4}-\d{2}-\d{2}$/.test(value)) return false;
  const date = new Date(`${value}T00:00:00Z`);
  // Years 1..9999 only (docs/api/contract.md §2): year 0000 parses, but no database or client expects it.
  return (
    !Number.isNaN(date.getTime()) && date.toISOString().slice(0, 10) === value && !value.startsWith('0000')
  );
}

/** An ISO 8601 date-time with an explicit offset (`Z` or `+hh:mm`). */
export function isDateTime(value: unknown): value is string {
  return (
    typeof value === 'string' &&
    /^\d{4}-\d{2}-\d{2}T\d{2}:\d{2}(:\d{2}(\.\d{1,6})?)?(Z|[+-]\d{2}:\d{2})$/.test(value) &&
    !Number.isNaN(new Date(value).getTime()) &&
    isDateOnly(value.slice(0, 10))
  );
}

/**
 * A class-validator constraint whose failure carries the contract's `type` word (docs/api/contract.md §2),
 * for checks the library has no decorator for.
 */
export function contractConstraint(
  name: string,
  type: string,
  message: string,
  test: (value: unknown) => boolean,
  options?: ValidationOptions,
): PropertyDecorator {
  return (target: object, propertyName: string | symbol) =>
    registerDecorator({
      name,
      target: target.constructor,
      propertyName: String(propertyName),
      options: { message, ...options, context: { type } },
      validator: { validate: test },
    });
}

export const IsDateOnly = (options?: ValidationOptions) =>
  contractConstraint(
    'isDateOnly',
    'date_parsing',
    'Input should be a valid date in the format YYYY-MM-DD',
    isDateOnly,
    options,
  );

export const IsDateTime = (options?: ValidationOptions) =>
  contractConstraint(
    'isDateTime',
    'datetime_parsing',
    'Input should be a valid ISO 8601 date-time with a time zone',
    isDateTime,
    options,
  );

const MONEY = /^-?\d{1,15}(\.\d{1,2})?$/;

/** Money as a decimal string (`"1250.5"`) or a JSON number, at most two fraction digits (docs/api/contract.md §3). */
export function IsMoney(options?: ValidationOptions & { min?: number }) {
  return contractConstraint(
    'isMoney',
    'decimal_parsing',
    'Input should be a decimal with at most two fraction digits',
    (value) =>
      typeof value === 'string' &&
      MONEY.test(value) &&
      (options?.min === undefined || Number(value) >= options.min),
    options,
  );
}

/** Normalises a JSON number to its decimal text so money never travels as a float. */
export const ToDecimalString = () =>
  Transform(({ value }: { value: unknown }) =>
    typeof value === 'number' && Number.isFinite(value) ? String(value) : value,
  );

/** Rejects anything but a plain JSON object (`metadata` fields). */
export const IsPlainObject = (options?: ValidationOptions) =>
  contractConstraint(
    'isPlainObject',
    'dict_type',
    'Input should be a valid object',
    (value) => typeof value === 'object' && value !== null && !Array.isArray(value),
    options,
  );
