import { ApiProperty } from '@nestjs/swagger';
import {
  IsDefined,
  IsInt,
  IsString,
  Max,
  MaxLength,
  Min,
  MinLength,
  registerDecorator,
  type ValidationArguments,
} from 'class-validator';
import { IsCleanText, IsName, Trim, contractConstraint } from '@media/kernel';

export const SLOT_TITLE_MAX = 255;
export const DURATION_MAX = 86_400;
/** Most slots one schedule may be created with (JSON or CSV). */
export const MAX_SLOTS = 50_000;

const DATE = /^(\d{4})-(\d{2})-(\d{2})$/;
const DAYS_IN_MONTH = [31, 28, 31, 30, 31, 30, 31, 31, 30, 31, 30, 31];

/**
 * A date PostgreSQL can store: `YYYY-MM-DD`, a real day, years 1..9999 (docs/api/contract.md §2). Plain
 * arithmetic rather than a Date per call: a 10,000-row CSV checks this for every row.
 */
export function isStorableDate(value: unknown): value is string {
  if (typeof value !== 'string') return false;
  const match = DATE.exec(value);
  if (!match) return false;
  const [year, month, day] = [Number(match[1]), Number(match[2]), Number(match[3])];
  if (year < 1 || month < 1 || month > 12 || day < 1) return false;
  const leap = year % 4 === 0 && (year % 100 !== 0 || year % 400 === 0);
  return day <= (month === 2 && leap ? 29 : DAYS_IN_MONTH[month - 1]);
}

export const IsStorableDate = () =>
  contractConstraint(
    'isDateOnly',
    'date_parsing',
    'Input should be a valid date in the format YYYY-MM-DD',
    isStorableDate,
  );

/** `HH:MM`, 00:00 to 23:59. */
export function isSlotTime(value: unknown): value is string {
  return typeof value === 'string' && /^([01]\d|2[0-3]):[0-5]\d$/.test(value);
}

/** The effective range a slot's `air_date` must fall in; stamped on slots by their schedule. */
export const EFFECTIVE_RANGE = Symbol('effective-range');
export interface EffectiveRange {
  from: unknown;
  to: unknown;
}

/** Why `airDate` lies outside the range, or undefined when inside (or when the range itself is invalid). */
export function outsideRange(airDate: string, range: EffectiveRange | undefined): string | undefined {
  if (!range || !isStorableDate(range.from) || !isStorableDate(range.to) || range.from > range.to)
    return undefined;
  if (airDate < range.from || airDate > range.to)
    return `air_date must fall within effective_from..effective_to (${range.from}..${range.to})`;
  return undefined;
}

/** `air_date` inside the range its schedule stamped on the slot (checked only for a valid date). */
function WithinEffectiveRange(): PropertyDecorator {
  const rangeOf = (args: ValidationArguments) =>
    (args.object as { [EFFECTIVE_RANGE]?: EffectiveRange })[EFFECTIVE_RANGE];
  return (target, propertyName) =>
    registerDecorator({
      name: 'withinEffectiveRange',
      target: target.constructor,
      propertyName: String(propertyName),
      options: {
        context: { type: 'value_error' },
        message: (args: ValidationArguments) =>
          (isStorableDate(args.value) && outsideRange(args.value, rangeOf(args))) ||
          'air_date is out of range',
      },
      validator: {
        validate: (value: unknown, args: ValidationArguments) =>
          !isStorableDate(value) || outsideRange(value, rangeOf(args)) === undefined,
      },
    });
}

/** A slot of `POST /content/api/v1/lineup` (JSON item or CSV row). */
export class SlotDto {
  @ApiProperty({ format: 'date', description: 'Within the schedule’s effective_from..effective_to' })
  @IsDefined()
  @IsStorableDate()
  @WithinEffectiveRange()
  air_date!: string;

  @ApiProperty({ example: '06:30', description: '`HH:MM`, 00:00..23:59' })
  @IsDefined()
  @contractConstraint(
    'isSlotTime',
    'time_parsing',
    'Input should be a valid time in the format HH:MM',
    isSlotTime,
  )
  start_time!: string;

  @ApiProperty({ minimum: 1, maximum: DURATION_MAX })
  @IsInt()
  @Min(1)
  @Max(DURATION_MAX)
  duration_seconds!: number;

  @ApiProperty({ minLength: 1, maxLength: SLOT_TITLE_MAX })
  @Trim()
  @IsString()
  @MinLength(1)
  @MaxLength(SLOT_TITLE_MAX)
  @IsCleanText()
  @IsName()
  title!: string;
}
