import { Transform } from 'class-transformer';
import { IsInt, Max, Min } from 'class-validator';
import { defineConfig, platformConfig, PlatformEnv, toDuration, toInt, type ConfigOf } from '@media/core';
import { MAX_LEVEL } from './escalation/escalation-level';

const DURATION = 'must be a duration such as 90s, 15m, 24h or 7d';

/** assignment's variables: the platform's (docs/api/contract.md §6) plus escalation. */
export class AssignmentEnv extends PlatformEnv {
  /** One escalation level per this much time past `due_at` (docs/api/contract.md §4.4). */
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

  /**
   * The highest escalation level: a task due long ago stops there (one event takes it there),
   * however many intervals passed.
   */
  @Transform(toInt)
  @IsInt({ message: 'must be an integer' })
  @Min(1)
  @Max(MAX_LEVEL)
  ESCALATION_MAX_LEVEL: number = 10;

  /** Rows escalated per transaction; two replicas share the work through SKIP LOCKED. */
  @Transform(toInt)
  @IsInt({ message: 'must be an integer' })
  @Min(1)
  @Max(10_000)
  ESCALATION_BATCH: number = 500;
}

export const assignmentConfig = defineConfig(AssignmentEnv, (env) => ({
  ...platformConfig(env),
  escalation: {
    interval: env.ESCALATION_INTERVAL,
    checkInterval: env.ESCALATION_CHECK_INTERVAL,
    nowOffset: env.ESCALATION_NOW_OFFSET,
    batch: env.ESCALATION_BATCH,
    maxLevel: env.ESCALATION_MAX_LEVEL,
  },
}));

/** assignment's typed config. */
export type AssignmentConfig = ConfigOf<typeof assignmentConfig>;
