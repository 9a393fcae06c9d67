import { ApiProperty, ApiPropertyOptional } from '@nestjs/swagger';
import { plainToInstance, Transform } from 'class-transformer';
import {
  ArrayMaxSize,
  IsArray,
  IsDefined,
  IsIn,
  IsInt,
  IsString,
  Max,
  MaxLength,
  Min,
  MinLength,
  registerDecorator,
  ValidateNested,
  type ValidationArguments,
} from 'class-validator';
import { MEDIA, type Medium } from '@media/contracts';
import { IsCleanText, IsName, IsPlainObject, Optional, Trim } from '@media/kernel';
import { EFFECTIVE_RANGE, isStorableDate, IsStorableDate, MAX_SLOTS, SlotDto } from './slot.dto';

export const CHANNEL_MAX = 100;
export const TITLE_MAX = 255;
export const INT_MAX = 2_147_483_647;

/** `effective_to` on or after `effective_from` (checked only when both are valid dates). */
function OnOrAfterEffectiveFrom(): PropertyDecorator {
  return (target, propertyName) =>
    registerDecorator({
      name: 'onOrAfterEffectiveFrom',
      target: target.constructor,
      propertyName: String(propertyName),
      options: {
        context: { type: 'value_error' },
        message: 'effective_to must be on or after effective_from',
      },
      validator: {
        validate: (value: unknown, args: ValidationArguments) => {
          const from = (args.object as { effective_from?: unknown }).effective_from;
          return !isStorableDate(value) || !isStorableDate(from) || from <= value;
        },
      },
    });
}

/** The schedule's own fields: what a PUT replaces (docs/api/contract.md §4.2). */
export class ScheduleFieldsDto {
  @ApiProperty({ enum: MEDIA })
  @IsIn(MEDIA)
  medium!: Medium;

  @ApiProperty({ minLength: 1, maxLength: CHANNEL_MAX })
  @Trim()
  @IsString()
  @MinLength(1)
  @MaxLength(CHANNEL_MAX)
  @IsCleanText()
  channel!: string;

  @ApiProperty({ minimum: 0, maximum: INT_MAX })
  @IsInt()
  @Min(0)
  @Max(INT_MAX)
  month!: number;

  @ApiProperty({ minimum: 0, maximum: INT_MAX })
  @IsInt()
  @Min(0)
  @Max(INT_MAX)
  year!: number;

  @ApiProperty({ minLength: 1, maxLength: TITLE_MAX })
  @Trim()
  @IsString()
  @MinLength(1)
  @MaxLength(TITLE_MAX)
  @IsCleanText()
  @IsName()
  title!: string;

  @ApiPropertyOptional({ minimum: 0, maximum: INT_MAX, description: 'Kept when absent (1 on create)' })
  @Optional()
  @IsInt()
  @Min(0)
  @Max(INT_MAX)
  version?: number;

  @ApiProperty({ format: 'date' })
  @IsDefined()
  @IsStorableDate()
  effective_from!: string;

  @ApiProperty({ format: 'date', description: 'On or after effective_from' })
  @IsDefined()
  @IsStorableDate()
  @OnOrAfterEffectiveFrom()
  effective_to!: string;

  @ApiPropertyOptional({
    type: 'object',
    additionalProperties: true,
    description: 'A JSON object (a JSON string in forms); kept when absent',
  })
  @Optional()
  @IsPlainObject()
  metadata?: Record<string, unknown>;
}

/** `PUT /content/api/v1/lineup/{id}` (update a schedule): `slots` and `uploaded_by` are refused. */
export class UpdateScheduleDto extends ScheduleFieldsDto {}

/**
 * Slots as sent: JSON objects, or in forms JSON text (one repeated key per slot, or one key
 * holding the whole array). Each becomes a SlotDto stamped with the schedule's effective range.
 */
function toSlots({ value, obj }: { value: unknown; obj: Record<string, unknown> }): unknown {
  if (value === undefined || value === null) return value;
  let items: unknown = value;
  if (Array.isArray(items) && items.every((item) => typeof item === 'string')) {
    const parsed = (items as string[]).map((text) => {
      try {
        return JSON.parse(text) as unknown;
      } catch {
        return text;
      }
    });
    items = parsed.length === 1 && Array.isArray(parsed[0]) ? parsed[0] : parsed;
  }
  if (!Array.isArray(items)) return items;
  const range = { from: obj.effective_from, to: obj.effective_to };
  return items.map((item: unknown) => {
    if (typeof item !== 'object' || item === null || Array.isArray(item)) return item;
    const slot = plainToInstance(SlotDto, item);
    Object.defineProperty(slot, EFFECTIVE_RANGE, { value: range, enumerable: false });
    return slot;
  });
}

/** `POST /content/api/v1/lineup` (docs/api/contract.md §4a): the fields plus slots (or a CSV `file`). */
export class CreateScheduleDto extends ScheduleFieldsDto {
  @ApiPropertyOptional({ type: [SlotDto], maxItems: MAX_SLOTS })
  @Optional()
  @Transform(toSlots)
  @IsArray()
  @ArrayMaxSize(MAX_SLOTS)
  @ValidateNested({ each: true })
  slots?: SlotDto[];
}
