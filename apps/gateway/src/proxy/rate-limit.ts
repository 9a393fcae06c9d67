/** The limits' window: N requests per minute. */
export const WINDOW_MS = 60_000;

/**
 * Per-client limit of N requests per minute, in memory (one number per client), by the generic
 * cell rate algorithm: a client may burst N requests, then gets one more every 60/N seconds.
 * Unlike fixed windows it never lets 2N through across a window edge, and unlike a log of
 * timestamps it costs O(1) per client.
 */
export class RateLimiter {
  /** Per client: the time at which its allowance would be whole again ("theoretical arrival"). */
  private readonly tat = new Map<string, number>();
  private readonly interval: number;
  private readonly sweeper?: NodeJS.Timeout;

  constructor(private readonly perMinute: number) {
    this.interval = perMinute > 0 ? WINDOW_MS / perMinute : 0;
    if (perMinute > 0) {
      this.sweeper = setInterval(() => this.sweep(), WINDOW_MS);
      this.sweeper.unref();
    }
  }

  /** Counts one request; 0 when allowed, else the whole seconds to wait (for Retry-After). */
  take(client: string, now = Date.now()): number {
    if (this.perMinute === 0) return 0;
    const start = Math.max(this.tat.get(client) ?? now, now);
    const next = start + this.interval;
    const overBy = next - now - WINDOW_MS;
    if (overBy > 0) return Math.max(1, Math.ceil(overBy / 1000));
    this.tat.set(client, next);
    return 0;
  }

  /** Clients whose allowance is whole again need no entry. */
  private sweep(now = Date.now()): void {
    for (const [client, tat] of this.tat) if (tat <= now) this.tat.delete(client);
  }

  close(): void {
    if (this.sweeper) clearInterval(this.sweeper);
    this.tat.clear();
  }
}
