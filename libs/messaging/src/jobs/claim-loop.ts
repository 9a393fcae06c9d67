import type { DataSource } from 'typeorm';
import { PeriodicJob } from './periodic-job';

/** What one round of a ClaimLoop took. */
export interface ClaimRound {
  /** Rows claimed (or taken) this round. */
  claimed: number;
  /** A batch came back full: the next round starts at once. */
  full: boolean;
}

export interface ClaimLoopOptions {
  /** Named in logs. */
  name: string;
  /** One round: claims rows with a lease and starts (or does) their work. */
  round: () => Promise<ClaimRound>;
  /** The pause between rounds when nothing asks for one sooner (default 1 s). */
  poll?: number;
  /** How soon a round follows a nudge (default 30 ms). */
  nudge?: number;
  /** Empty rounds at 3 × `nudge` after a nudge before falling back to `poll` (default 5). */
  eagerRounds?: number;
  /** The audit actor of what its rounds change (`<app>:<worker>`, CONTRACT §8.1). */
  actor?: string;
}

/**
 * The loop of a worker that claims rows with a lease, does their work outside any transaction
 * and records it only while the lease is still its own (the webhook worker, the email delivery):
 * rounds one at a time every `poll`, at once after a full batch, soon after a `nudge()` (work
 * was written in a transaction about to commit), then a few empty rounds at a short interval in
 * case the commit lands after the first look. `stop()` awaits the running round.
 */
export class ClaimLoop {
  private readonly job: PeriodicJob<ClaimRound>;
  private eager = 0;
  private readonly poll: number;
  private readonly nudgeMs: number;

  constructor(private readonly options: ClaimLoopOptions) {
    this.poll = options.poll ?? 1_000;
    this.nudgeMs = options.nudge ?? 30;
    this.job = new PeriodicJob({
      name: options.name,
      actor: options.actor,
      every: this.poll,
      retryAfter: this.poll * 2,
      run: options.round,
      after: ({ claimed, full }) => {
        if (full) return 0;
        if (claimed === 0 && this.eager > 0) {
          this.eager -= 1;
          return this.nudgeMs * 3;
        }
        return this.poll;
      },
    });
  }

  start(): void {
    this.job.start();
  }

  stop(): Promise<void> {
    return this.job.stop();
  }

  /** Work was written in a transaction about to commit: look soon, and briefly keep looking. */
  nudge(): void {
    this.eager = this.options.eagerRounds ?? 5;
    this.job.soon(this.nudgeMs);
  }

  /** The next round within `delay` ms (e.g. 0 when a send ended and left room). */
  soon(delay = 0): void {
    this.job.soon(delay);
  }
}

/** The columns a table's lease is kept in. */
export interface LeaseColumns {
  table: string;
  /** Who holds it: a replica's id or a round's claim id. */
  owner: string;
  until: string;
}

/** SQL true when a row's lease is free (never taken, or over). */
export const leaseFree = (lease: LeaseColumns, alias?: string): string => {
  const until = alias ? `${alias}.${lease.until}` : lease.until;
  return `(${until} IS NULL OR ${until} <= clock_timestamp())`;
};

/**
 * Gives leased rows back at once (work not started, or cut short by a shutdown), only where the
 * lease is still `owner`'s, so the next round of any replica takes them without waiting for it
 * to run out. `also` narrows it further (e.g. `AND email_status = 'pending'`).
 */
export async function releaseLeases(
  dataSource: DataSource,
  lease: LeaseColumns,
  ids: string[],
  owner: string,
  also = '',
): Promise<void> {
  if (ids.length === 0) return;
  await dataSource.query(
    `UPDATE ${lease.table} SET ${lease.owner} = NULL, ${lease.until} = NULL
      WHERE id = ANY($1::uuid[]) AND ${lease.owner} = $2 ${also}`,
    [ids, owner],
  );
}
