import { Inject, Injectable } from '@nestjs/common';
import { HealthIndicatorService } from '@nestjs/terminus';
import { EventBus } from '@media/messaging';

/**
 * Reports each durable consumer and names the stalled ones (events pending, none acknowledged
 * for EVENTS_STALL_AFTER) but is always up: a NATS problem stalls every replica of every app
 * alike, and failing readiness for it would take all of them out of service while HTTP still
 * works. The alert on `events_consumer_stalled_seconds` is what calls someone.
 */
@Injectable()
export class EventsHealthIndicator {
  constructor(
    @Inject(EventBus) private readonly bus: EventBus,
    @Inject(HealthIndicatorService) private readonly indicator: HealthIndicatorService,
  ) {}

  check(key: string) {
    const consumers = this.bus.consumerReports();
    return this.indicator.check(key).up({
      stalled: consumers.filter((c) => c.stalled).map((c) => c.name),
      consumers: consumers.map(({ name, pending, ackPending, stalledSeconds, reason }) => ({
        name,
        pending,
        ack_pending: ackPending,
        stalled_seconds: stalledSeconds,
        ...(reason ? { reason } : {}),
      })),
    });
  }
}
