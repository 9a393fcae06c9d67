import { ApiPropertyOptional } from '@nestjs/swagger';
import { IsIn, IsInt, IsString, IsUUID, Max, MaxLength, Min, MinLength } from 'class-validator';
import { MEDIA, type Medium } from '@media/contracts';
import { IsCleanText, Optional } from '@media/kernel';
import { PageQuery } from '@media/http';
import { CHANNEL_MAX, INT_MAX } from './schedule.dto';

/** `GET /content/api/v1/lineup`: newest month first (year, month, created_at, id, descending). */
export class ListSchedulesQuery extends PageQuery {
  @ApiPropertyOptional({ enum: MEDIA })
  @Optional()
  @IsIn(MEDIA)
  medium?: Medium;

  @ApiPropertyOptional({ minLength: 1, maxLength: CHANNEL_MAX, description: 'Exact match' })
  @Optional()
  @IsString()
  @MinLength(1)
  @MaxLength(CHANNEL_MAX)
  @IsCleanText()
  channel?: string;

  @ApiPropertyOptional({ minimum: 0, maximum: INT_MAX })
  @Optional()
  @IsInt()
  @Min(0)
  @Max(INT_MAX)
  month?: number;

  @ApiPropertyOptional({ minimum: 0, maximum: INT_MAX })
  @Optional()
  @IsInt()
  @Min(0)
  @Max(INT_MAX)
  year?: number;
}

/** `GET /content/api/v1/lineup/{id}/slots`: by air_date, start_time, id. */
export class ListSlotsQuery extends PageQuery {}

export class ScheduleIdParams {
  @IsUUID('all')
  id!: string;
}

export class SlotIdParams {
  @IsUUID('all')
  slot_id!: string;
}

export class SlotAssetParams {
  @IsUUID('all')
  slot_id!: string;

  @IsUUID('all')
  document_id!: string;
}
