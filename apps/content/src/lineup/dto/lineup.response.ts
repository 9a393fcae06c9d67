import { ApiProperty } from '@nestjs/swagger';
import {
  MEDIA,
  type BroadcastScheduleView,
  type Medium,
  type ScheduleUploader,
  type SlotAssetView,
  type SlotView,
  type Weekday,
} from '@media/contracts';

export class ScheduleUploaderResponse implements ScheduleUploader {
  @ApiProperty({ format: 'uuid' })
  id!: string;

  @ApiProperty({ type: String, nullable: true })
  name!: string | null;

  @ApiProperty({ type: String, nullable: true })
  employee_number!: string | null;
}

export class SlotDayCountResponse {
  @ApiProperty({ enum: ['MON', 'TUE', 'WED', 'THU', 'FRI', 'SAT', 'SUN'] })
  day!: Weekday;

  @ApiProperty()
  count!: number;
}

export class BroadcastScheduleResponse implements BroadcastScheduleView {
  @ApiProperty({ format: 'uuid' })
  id!: string;

  @ApiProperty({ enum: MEDIA })
  medium!: Medium;

  @ApiProperty()
  channel!: string;

  @ApiProperty()
  month!: number;

  @ApiProperty()
  year!: number;

  @ApiProperty()
  title!: string;

  @ApiProperty()
  version!: number;

  @ApiProperty({ format: 'date' })
  effective_from!: string;

  @ApiProperty({ format: 'date' })
  effective_to!: string;

  @ApiProperty({ type: ScheduleUploaderResponse })
  uploaded_by!: ScheduleUploaderResponse;

  @ApiProperty({
    type: 'object',
    additionalProperties: { $ref: '#/components/schemas/SlotDayCountResponse' },
    description: 'Every date that has slots (YYYY-MM-DD keys, ascending)',
  })
  slot_count!: Record<string, SlotDayCountResponse>;

  @ApiProperty({ type: 'object', additionalProperties: true })
  metadata!: Record<string, unknown>;

  @ApiProperty({ format: 'date-time' })
  created_at!: string;

  @ApiProperty({ format: 'date-time' })
  updated_at!: string;
}

export class SlotAssetResponse implements SlotAssetView {
  @ApiProperty({ format: 'uuid' })
  document_id!: string;

  @ApiProperty({ format: 'uuid' })
  attached_by!: string;

  @ApiProperty({ format: 'date-time' })
  attached_at!: string;
}

export class SlotResponse implements SlotView {
  @ApiProperty({ format: 'uuid' })
  id!: string;

  @ApiProperty({ format: 'date' })
  air_date!: string;

  @ApiProperty({ example: '06:30' })
  start_time!: string;

  @ApiProperty()
  duration_seconds!: number;

  @ApiProperty()
  title!: string;

  @ApiProperty({ type: [SlotAssetResponse] })
  assets!: SlotAssetResponse[];
}
