import { applyDecorators } from '@nestjs/common';
import { IsString, MaxLength, MinLength, ValidateIf } from 'class-validator';
import { IsMoney, ToDecimalString } from '@media/kernel';

/** Validates a field only when it was sent (absent keeps the stored value; null is refused). */
export const Given = (field: string) => ValidateIf((o: Record<string, unknown>) => o[field] !== undefined);

/** Text of `min..max` characters. */
export const IsText = (min: number, max: number) =>
  applyDecorators(IsString(), MinLength(min), MaxLength(max));

/** A non-negative money amount: a decimal string or JSON number, at most two fraction digits. */
export const IsAmount = () => applyDecorators(ToDecimalString(), IsMoney({ min: 0 }));

/** A line's spots: a whole number from 1 to a million. */
export const MAX_SPOTS = 1_000_000;

/** Most lines one create may carry; more are added with `POST .../lines`. */
export const MAX_LINES_PER_CREATE = 1000;
