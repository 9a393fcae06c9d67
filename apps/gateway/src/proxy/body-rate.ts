/**
 * The minimum body rate of one request (MIN_BODY_RATE), measured against the client only. A
 * window is judged once the client has had `windowMs` of its own time to send; time does not
 * count while the gateway held the body back (the request stream was paused because the
 * upstream was not reading, so the client could not send), nor a tick that came late because
 * the gateway's event loop was busy (the bytes sent meanwhile are still unread in the socket).
 */
export class BodyRate {
  /** Bytes received in the current window. */
  private bytes = 0;
  /** The client's own time in the current window, in ms. */
  private owed = 0;
  private lastTick: number;

  constructor(
    /** Bytes per second the client must keep up. */
    private readonly perSecond: number,
    private readonly windowMs: number,
    /** How often `tick` is called; a tick later than half as much again does not count. */
    private readonly tickMs: number,
    now: number,
  ) {
    this.lastTick = now;
  }

  received(bytes: number): void {
    this.bytes += bytes;
  }

  /**
   * Called every `tickMs`; `held` says whether the gateway held the body back at any moment since
   * the last call. True when a whole window of the client's time brought fewer bytes than the rate.
   */
  tick(now: number, held: boolean): boolean {
    const elapsed = now - this.lastTick;
    this.lastTick = now;
    if (held || elapsed > this.tickMs * 1.5) return false;
    this.owed += elapsed;
    if (this.owed < this.windowMs) return false;
    const tooSlow = this.bytes < (this.perSecond * this.owed) / 1000;
    this.bytes = 0;
    this.owed = 0;
    return tooSlow;
  }
}
