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
 * (applied or dead-lettered; a failed attempt is not progress), the server's ack floor moving
 * (another replica applied one), or the consumer's leader telling this process's pull that it has
 * nothing to deliver while nothing is unsettled here (an idle heartbeat): a consumer with nothing
 * pending is never stalled. While the server cannot be asked (quorum lost, consumer not created
 * yet) and the pull hears nothing either, work may be waiting, so the time since the last
 * progress counts as well.
 */
export class ConsumerProgress {
  private last?: ConsumerSnapshot;
  /** When `last` was read. */
  private observedAt?: number;
  private progressAt: number;
  private unavailable?: string = 'not created yet';
  /** When the consumer's leader last answered this process (its info, a message, a heartbeat). */
  private answeredAt?: number;
  /** When the leader last said it had nothing to deliver while nothing was unsettled here. */
  private idleAt?: number;
  /** A delivery failed here since the last reading: it waits on the server for its redelivery. */
  private redelivering = false;

  /**
   * `liveMs`: how long an answer from the consumer's leader vouches for it (a little over the
   * two heartbeats after which the pull is started over).
   */
  constructor(
    readonly name: string,
    private readonly stallAfterMs: number,
    now = Date.now(),
    private readonly liveMs = 3_000,
  ) {
    this.progressAt = now;
  }

  /** An event was acknowledged or terminated by this process. */
  acknowledged(now = Date.now()): void {
    this.progressAt = now;
  }

  /** A delivery failed here and is to be redelivered later: the consumer is not idle meanwhile. */
  failed(): void {
    this.redelivering = true;
  }

  /** The server's consumer info was read. */
  observed(snapshot: ConsumerSnapshot, now = Date.now()): void {
    const idle = snapshot.pending + snapshot.ackPending === 0;
    if (idle || (this.last && snapshot.ackFloor !== this.last.ackFloor)) this.progressAt = now;
    this.last = snapshot;
    this.observedAt = now;
    this.unavailable = undefined;
    this.redelivering = false;
  }

  /**
   * The consumer's leader answered this process: its info for a new pull, a message, or a
   * heartbeat. `idle`: it was a heartbeat (the leader has nothing to deliver to the pull) while
   * this process held no message unsettled. The consumer is readable while such answers keep
   * coming, whatever a reading of its info says meanwhile; an idle answer is progress unless a
   * failed delivery (here, or pending acknowledgement at the last reading) is waiting.
   */
  answered(idle: boolean, now = Date.now()): void {
    this.answeredAt = now;
    this.unavailable = undefined;
    if (idle && !this.redelivering && (this.last?.ackPending ?? 0) === 0) {
      this.idleAt = now;
      this.progressAt = now;
    }
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
    const live = this.answeredAt !== undefined && now - this.answeredAt <= this.liveMs;
    const idle = this.idleAt !== undefined && now - this.idleAt <= this.liveMs;
    const unavailable = live ? undefined : this.unavailable;
    // What may be waiting: the newer of the last reading and the leader's last "nothing to
    // deliver" says (a consumer created since its last reading, or never read, that its leader
    // said idle has no backlog to suspect until a reading or the server says otherwise).
    const saidIdleSince =
      this.idleAt !== undefined && (this.observedAt === undefined || this.idleAt > this.observedAt);
    const backlog = !saidIdleSince && (!known || known.pending + known.ackPending > 0);
    const waiting = !idle && (unavailable !== undefined || backlog);
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
      report.reason =
        unavailable !== undefined
          ? `consumer info unavailable (${unavailable})`
          : known
            ? `${known.pending + known.ackPending} events pending, none acknowledged`
            : 'no answer from the server yet';
    }
    return report;
  }
}
