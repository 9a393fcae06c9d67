import { Module } from '@nestjs/common';
import { Feature } from '@media/platform';
import { ClockService } from './clock.service';

/**
 * Quiet hours as local time (docs/api/contract.md §7.3): the zone arithmetic that says when a
 * quiet period begins and ends and when a digest is due, and the clock those are decided by.
 * It owns no table: the hours are part of a user's settings.
 */
@Feature({})
@Module({
  providers: [ClockService],
  exports: [ClockService],
})
export class QuietHoursModule {}
