import { ApiProperty, ApiPropertyOptional } from '@nestjs/swagger';
import { Transform, Type } from 'class-transformer';
import { IsIn, IsString, Matches, ValidateBy, ValidateNested, type ValidationOptions } from 'class-validator';
import { contractConstraint, Nullable, Optional } from '@media/kernel';
import { canonicalTimeZone } from '../../quiet-hours/time-zones';

/** `HH:MM`, 24 h. */
const HH_MM = /^([01]\d|2[0-3]):[0-5]\d$/;
const HH_MM_MESSAGE = 'Time should be HH:MM (24 h), e.g. 07:30';

export const EMAIL_DIGESTS = ['off', 'daily'] as const;
export type EmailDigest = (typeof EMAIL_DIGESTS)[number];

/** The end of a quiet range must differ from its start (an empty or a whole-day range is refused). */
function DiffersFromStart(options?: ValidationOptions): PropertyDecorator {
  return ValidateBy(
    {
      name: 'differsFromStart',
      validator: {
        validate: (value, args) => value !== (args?.object as { start?: unknown }).start,
        defaultMessage: () => 'end should differ from start',
      },
    },
    { ...options, context: { type: 'value_error' } },
  );
}

/** Local times; `start` later than `end` crosses midnight (22:00 to 07:00). */
export class QuietHoursDto {
  @ApiProperty({ pattern: HH_MM.source, example: '22:00' })
  @IsString()
  @Matches(HH_MM, { message: HH_MM_MESSAGE, context: { type: 'value_error' } })
  start!: string;

  @ApiProperty({ pattern: HH_MM.source, example: '07:00', description: 'Differs from start' })
  @IsString()
  @Matches(HH_MM, { message: HH_MM_MESSAGE, context: { type: 'value_error' } })
  @DiffersFromStart()
  end!: string;
}

/** `PUT /api/v1/notifications/settings` (docs/api/contract.md §7.3): replaces; a missing field takes its default. */
export class SettingsDto {
  @ApiPropertyOptional({
    default: 'UTC',
    example: 'Europe/Berlin',
    description:
      'IANA zone or link name, in any case; stored and answered in the tz database’s own spelling (`us/pacific` as `US/Pacific`)',
  })
  @Optional()
  // The tz database's spelling (docs/api/contract.md §7.3): `europe/berlin` is stored as `Europe/Berlin`.
  @Transform(({ value }: { value: unknown }) => canonicalTimeZone(value) ?? value)
  @IsString()
  @contractConstraint(
    'isTimeZone',
    'value_error',
    'Unknown time zone',
    (value) => canonicalTimeZone(value) !== undefined,
  )
  timezone: string = 'UTC';

  @ApiPropertyOptional({ type: QuietHoursDto, nullable: true, default: null })
  @Nullable()
  @ValidateNested()
  @Type(() => QuietHoursDto)
  quiet_hours: QuietHoursDto | null = null;

  @ApiPropertyOptional({ enum: EMAIL_DIGESTS, default: 'off' })
  @Optional()
  @IsIn(EMAIL_DIGESTS)
  email_digest: EmailDigest = 'off';

  @ApiPropertyOptional({
    pattern: HH_MM.source,
    default: '08:00',
    description: 'Local time of the daily digest',
  })
  @Optional()
  @IsString()
  @Matches(HH_MM, { message: HH_MM_MESSAGE, context: { type: 'value_error' } })
  digest_time: string = '08:00';
}
