import { Injectable } from '@nestjs/common';
import { InjectConfig } from '@media/kernel';
import type { AssignmentConfig } from '../config';

/**
 * The time assignment reasons with for due dates (overdue filter, escalation): the wall clock
 * plus `ESCALATION_NOW_OFFSET`, so a test or a drill can move it forward.
 */
@Injectable()
export class ClockService {
  private readonly offsetMs: number;

  constructor(@InjectConfig() config: AssignmentConfig) {
    this.offsetMs = config.escalation.nowOffset;
  }

  now(): Date {
    return new Date(Date.now() + this.offsetMs);
  }
}
