/**
 * What the delivery worker's rounds look at once SIGTERM began: `requested`, take nothing new
 * (claims not started are given back); `cutting`, the grace for the sends under way is over and
 * they were cut (what they held is given back, not counted as a failed attempt).
 */
export class Stopping {
  requested = false;
  cutting = false;
  private timer?: NodeJS.Timeout;

  /** Stops taking work now; after `graceMs`, calls `cut` to end the sends still under way. */
  begin(graceMs: number, cut: () => void): void {
    if (this.requested) return;
    this.requested = true;
    this.timer = setTimeout(() => {
      this.cutting = true;
      cut();
    }, graceMs);
    this.timer.unref();
  }

  /** The rounds ended: nothing left to cut. */
  end(): void {
    clearTimeout(this.timer);
  }
}
