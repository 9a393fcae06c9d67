import { Transform } from 'class-transformer';
import { IsInt, Max, Min } from 'class-validator';
import { PlatformConfig, toDuration } from '@media/platform';

const DURATION = 'must be a duration such as 90s, 15m, 24h or 7d';

/** assignment's configuration: the platform's variables (CONTRACT §6) plus escalation. */
export class AssignmentConfig extends PlatformConfig {
  /** One escalation level per this much time past `due_at` (CONTRACT §4.4). */
  @Transform(toDuration)
  @IsInt({ message: DURATION })
  @Min(1000, { message: 'must be at least 1s' })
  ESCALATION_INTERVAL: number = 24 * 3_600_000;

  /** How often the escalation job looks for overdue tasks (each run is jittered by ±20%). */
  @Transform(toDuration)
  @IsInt({ message: DURATION })
  @Min(100, { message: 'must be at least 100ms' })
  ESCALATION_CHECK_INTERVAL: number = 60_000;

  /** Added to the wall clock the escalation job reads: lets a test or a drill move time forward. */
  @Transform(toDuration)
  @IsInt({ message: DURATION })
  @Min(0)
  ESCALATION_NOW_OFFSET: number = 0;

  /** Rows escalated per transaction; two replicas share the work through SKIP LOCKED. */
  @Transform(({ value }: { value: unknown }) =>
    typeof value === 'string' && /^\d+$/.test(value) ? Number(value) : value,
  )
  @IsInt({ message: 'must be an integer' })
  @Min(1)
  @Max(10_000)
  ESCALATION_BATCH: number = 500;
}
