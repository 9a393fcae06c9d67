/** What the server says of a durable consumer (JetStream consumer info), as far as a stall goes. */
export interface ConsumerSnapshot {
  /** Events in the stream not delivered to the consumer yet. */
  pending: number;
  /** Events delivered and not acknowledged yet. */
  ackPending: number;
  redelivered: number;
  /** Stream sequence below which every event is acknowledged. */
  ackFloor: number;
}

/** A consumer as readiness and the metrics report it. */
export interface ConsumerReport {
  name: string;
  /** Last known figures; null until the server answered once. */
  pending: number | null;
  ackPending: number | null;
  redelivered: number | null;
  /** How long it has had (or may have) work waiting without progress; 0 when idle or moving. */
  stalledSeconds: number;
  stalled: boolean;
  /** Why it is stalled, when it is. */
  reason?: string;
}

/**
 * "Pending and not progressing" for one durable consumer. Progress is an event acknowledged here
 * (applied or dead-lettered; a failed attempt is not progress) or the server's ack floor moving
 * (another replica applied one); a consumer with nothing pending is never stalled. While the
 * server cannot be asked (quorum lost, consumer not created yet) work may be waiting, so the
 * time since the last progress counts as well.
 */
export class ConsumerProgress {
  private last?: ConsumerSnapshot;
  private progressAt: number;
  private unavailable?: string = 'not created yet';

  constructor(
    readonly name: string,
    private readonly stallAfterMs: number,
    now = Date.now(),
  ) {
    this.progressAt = now;
  }

  /** An event was acknowledged or terminated by this process. */
  acknowledged(now = Date.now()): void {
    this.progressAt = now;
  }

  /** The server's consumer info was read. */
  observed(snapshot: ConsumerSnapshot, now = Date.now()): void {
    const idle = snapshot.pending + snapshot.ackPending === 0;
    if (idle || (this.last && snapshot.ackFloor !== this.last.ackFloor)) this.progressAt = now;
    this.last = snapshot;
    this.unavailable = undefined;
  }

  /**
   * Its pull runs again (the server answered for it): the consumer is readable, so an idle one is
   * not reported stalled until the next reading, while one with a backlog stays stalled until it
   * acknowledges.
   */
  resumed(): void {
    this.unavailable = undefined;
  }

  /** The server could not be asked (`reason` is kept for the report). */
  unreadable(reason: string): void {
    this.unavailable = reason;
  }

  get snapshot(): ConsumerSnapshot | undefined {
    return this.last;
  }

  report(now = Date.now()): ConsumerReport {
    const known = this.last;
    const waiting = this.unavailable !== undefined || !known || known.pending + known.ackPending > 0;
    const stalledMs = waiting ? Math.max(0, now - this.progressAt) : 0;
    const stalled = stalledMs >= this.stallAfterMs;
    const report: ConsumerReport = {
      name: this.name,
      pending: known?.pending ?? null,
      ackPending: known?.ackPending ?? null,
      redelivered: known?.redelivered ?? null,
      stalledSeconds: Math.round(stalledMs / 100) / 10,
      stalled,
    };
    if (stalled) {
      report.reason = this.unavailable
        ? `consumer info unavailable (${this.unavailable})`
        : `${known!.pending + known!.ackPending} events pending, none acknowledged`;
    }
    return report;
  }
}
