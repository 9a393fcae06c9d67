import { Injectable } from '@nestjs/common';

/**
 * The time quiet hours and digests are decided by. The wall clock; one injectable so that an
 * in-process test can stand a controlled clock in its place (there is no setting for it).
 */
@Injectable()
export class ClockService {
  now(): Date {
    return new Date();
  }
}
