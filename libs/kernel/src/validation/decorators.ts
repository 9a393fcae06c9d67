import { Transform } from 'class-transformer';
import { IsOptional, registerDecorator, ValidateIf, type ValidationOptions } from 'class-validator';

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

// eslint-disable-next-line no-control-regex -- C0 control characters are exactly what is refused
const CONTROL = /[\u0000-\u001f\u007f]/;
/** Bidi embeddings, overrides (U+202A–U+202E) and isolates (U+2066–U+2069): text that displays reordered. */
const BIDI_CONTROL = /[\u202a-\u202e\u2066-\u2069]/;

/** Why a name or title is refused, or undefined when it is acceptable (or not text at all). */
export function nameProblem(value: unknown): string | undefined {
  if (typeof value !== 'string' || value.length === 0) return undefined;
  if (value.trim().length === 0) return 'Name must not be only whitespace';
  if (CONTROL.test(value)) return 'Name must not contain control characters';
  if (BIDI_CONTROL.test(value)) return 'Name must not contain bidirectional override or isolate characters';
  return undefined;
}

/**
 * A name or title a person reads (a room, a category, a schedule, a client): not only whitespace,
 * no C0 control characters and no bidi overrides or isolates, which can make `gnp.exe` display as
 * `exe.png` (docs/api/contract.md §2). 422 `value_error`; the type and length checks stay separate.
 */
export const IsName =
  (options?: ValidationOptions): PropertyDecorator =>
  (target: object, propertyName: string | symbol) =>
    registerDecorator({
      name: 'isName',
      target: target.constructor,
      propertyName: String(propertyName),
      options: { ...options, context: { type: 'value_error' } },
      validator: {
        validate: (value: unknown) => nameProblem(value) === undefined,
        defaultMessage: (args) => nameProblem(args?.value) ?? 'Invalid name',
      },
    });

/**
 * The field may be left out; `null` is validated like any other value, so it is a 422 at the
 * field with the type word of a wrong type (docs/api/contract.md §2). class-validator's
 * `@IsOptional()` skips `null` too, which let `null` reach NOT NULL columns (a 500).
 */
export const Optional = (options?: ValidationOptions): PropertyDecorator =>
  ValidateIf((_object: object, value: unknown) => value !== undefined, options);

/**
 * The field may be left out or be `null` (the contract gives null a meaning: "none", "clear it").
 * Declare it `nullable: true` in its `@ApiProperty` too, so a generated client types it `T | null`.
 */
export const Nullable = (options?: ValidationOptions): PropertyDecorator => IsOptional(options);
