import { applyDecorators } from '@nestjs/common';
import { ApiProperty, ApiPropertyOptional } from '@nestjs/swagger';
import { Transform } from 'class-transformer';
import { IsDefined, IsInt, IsString, IsUUID, Max, MaxLength, Min, MinLength } from 'class-validator';
import { IsMoney, Optional, ToDecimalString } from '@media/kernel';

const MIN_YEAR = 2020;
const MAX_YEAR = 9999;

/**
 * The decorators in the order they would be written stacked above a property: a stack applies
 * bottom-up, and class-validator reports a field's constraints in the order they were registered.
 */
function stacked(...decorators: PropertyDecorator[]): PropertyDecorator {
  return applyDecorators(...decorators.reverse());
}

/** `bm_id` of a write: a user acl knows (checked by the service). */
export const BmIdField = () =>
  stacked(ApiProperty({ format: 'uuid', description: 'A user known to acl' }), IsUUID('all'));

/** `category` of a write: trimmed, 1..100 characters. */
export const CategoryField = () =>
  stacked(
    ApiProperty({ minLength: 1, maxLength: 100 }),
    Transform(({ value }: { value: unknown }) => (typeof value === 'string' ? value.trim() : value)),
    IsString(),
    MinLength(1),
    MaxLength(100),
  );

/** A money amount of a write: decimal text or a JSON number, at least `min`. */
export const MoneyField = (min: number, example: string) =>
  stacked(
    ApiProperty({ type: String, example, description: `Decimal text or a JSON number, >= ${min}` }),
    IsDefined(),
    ToDecimalString(),
    IsMoney({ min }),
  );

/** The optional `bm_id` filter of a list. */
export const BmIdFilter = () => stacked(ApiPropertyOptional({ format: 'uuid' }), Optional(), IsUUID('all'));

/** The optional `category` filter of a list. */
export const CategoryFilter = () => stacked(ApiPropertyOptional(), Optional(), IsString(), MaxLength(100));

interface PeriodFieldOptions {
  /** A list's filter or a query parameter with a default, rather than a field a write needs. */
  optional?: boolean;
  description?: string;
}

/** A month 1..12. */
export const MonthField = ({ optional = false, description }: PeriodFieldOptions = {}) =>
  stacked(
    (optional ? ApiPropertyOptional : ApiProperty)({ minimum: 1, maximum: 12, description }),
    ...(optional ? [Optional()] : []),
    IsInt(),
    Min(1),
    Max(12),
  );

/** A year MIN_YEAR..MAX_YEAR. */
export const YearField = ({ optional = false, description }: PeriodFieldOptions = {}) =>
  stacked(
    (optional ? ApiPropertyOptional : ApiProperty)({ minimum: MIN_YEAR, maximum: MAX_YEAR, description }),
    ...(optional ? [Optional()] : []),
    IsInt(),
    Min(MIN_YEAR),
    Max(MAX_YEAR),
  );
