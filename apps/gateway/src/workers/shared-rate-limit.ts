import type { Worker } from 'node:cluster';
import { RateLimited } from '@media/core';
import { WINDOW_MS } from '../proxy/rate-limit';

/** Which of the gateway's per-client limits a key is counted against. */
export type LimitName = 'api' | 'health';

/** What the gateway asks of a per-client limit: 0 when allowed, else the seconds to wait. */
export interface ClientLimit {
  take(client: string): number | Promise<number>;
  close(): void;
}

/**
 * Runs `then` once `limit` let `client` through: at once when the answer is known here (one
 * process, the limit off, or credits this worker holds), else when the primary answered. A client
 * over the limit is a 429 (RateLimited): thrown when answered at once, else handed to `fail`, as
 * is whatever `then` throws.
 */
export function whenAllowed(
  limit: ClientLimit,
  client: string,
  then: () => void,
  fail: (error: unknown) => void,
): void {
  const wait = limit.take(client);
  if (typeof wait === 'number') {
    if (wait > 0) throw new RateLimited(wait);
    then();
    return;
  }
  wait
    .then((seconds) => {
      if (seconds > 0) throw new RateLimited(seconds);
      then();
    })
    .catch(fail);
}

/** The most requests one grant hands a worker ahead of need. */
const MAX_LEASE = 64;

/** What the primary grants one client at one worker's asking. */
export interface Grant {
  /** Requests the worker may let through (those it asked for first, then a lease for later). */
  granted: number;
  /** For requests asked for and not granted: the seconds until the next one would pass (Retry-After). */
  wait: number;
}

/**
 * The primary's count of one per-client limit for GATEWAY_WORKERS: the generic cell rate algorithm
 * of RateLimiter (a burst of N, then one more every 60/N seconds), handing out credits instead of
 * single answers. A worker asks for the requests waiting on it; while a client's allowance is
 * ample it also gets a lease, at most 1/(2 × workers) of what is left, which it spends without
 * asking; near the limit the lease is 0 and every request is asked for, one by one.
 *
 * A credit is counted when it is granted, and a credit still held (not yet reported spent or
 * handed back) counts as if it were spent at this very moment: however late a worker spends it,
 * no client gets more than one process's limiter would let through. Workers report what they
 * spent and hand back what they did not at least every second, so a client's allowance comes
 * back as it would with one process; credits of a worker that died are forgotten.
 */
export class LeaseLedger {
  /** Per client: the theoretical arrival time (RateLimiter's) and the credits workers still hold. */
  private readonly counts = new Map<string, { tat: number; held: number }>();
  private readonly interval: number;
  private readonly sweeper?: NodeJS.Timeout;

  constructor(
    private readonly perMinute: number,
    private readonly workers: number,
  ) {
    this.interval = perMinute > 0 ? WINDOW_MS / perMinute : 0;
    if (perMinute > 0) {
      this.sweeper = setInterval(() => this.sweep(), WINDOW_MS);
      this.sweeper.unref();
    }
  }

  /** Up to `wanted` requests of `client` at `now`, and a lease for later when its allowance is ample. */
  grant(client: string, wanted: number, now = Date.now()): Grant {
    if (this.perMinute === 0) return { granted: wanted + MAX_LEASE, wait: 0 };
    let count = this.counts.get(client);
    if (!count) {
      count = { tat: now, held: 0 };
      this.counts.set(client, count);
    }
    // Credits held anywhere may all be spent now.
    const start = Math.max(count.tat, now + count.held * this.interval);
    const room = this.room(start, now);
    const lease = Math.min(MAX_LEASE, Math.floor(room / (2 * this.workers)));
    const granted = Math.min(room, wanted + lease);
    count.tat = start + granted * this.interval;
    count.held += granted;
    let wait = 0;
    if (granted < wanted) {
      const overBy = count.tat + this.interval - now - WINDOW_MS;
      wait = Math.max(1, Math.ceil(overBy / 1000));
    }
    return { granted, wait };
  }

  /**
   * A worker's report: `spent` of its credits went to requests, `returned` it will not spend (the
   * count is as if those had never been granted).
   */
  settle(client: string, spent: number, returned: number): void {
    const count = this.counts.get(client);
    if (!count) return;
    count.held = Math.max(0, count.held - spent - returned);
    count.tat -= returned * this.interval;
  }

  /** Credits of a worker that is gone: nobody will spend them. */
  forget(client: string, credits: number): void {
    this.settle(client, credits, 0);
  }

  /** How many requests may pass at `now` when the count stands at `start` (RateLimiter's rule). */
  private room(start: number, now: number): number {
    let room = Math.max(0, Math.floor((now + WINDOW_MS - start) / this.interval));
    // The division may be off by one either way in floating point: settle on RateLimiter's test.
    while (room > 0 && start + room * this.interval - now > WINDOW_MS) room -= 1;
    while (start + (room + 1) * this.interval - now <= WINDOW_MS) room += 1;
    return room;
  }

  private sweep(now = Date.now()): void {
    for (const [client, count] of this.counts)
      if (count.held === 0 && count.tat <= now) this.counts.delete(client);
  }

  close(): void {
    if (this.sweeper) clearInterval(this.sweeper);
    this.counts.clear();
  }
}

interface TakeRequest {
  type: 'gateway:rate-take';
  id: number;
  limit: LimitName;
  /** Reports first, [client, credits spent, credits handed back], then the asks. */
  settles: [string, number, number][];
  /** Per client asked for: [client, requests waiting]. */
  asks: [string, number][];
}

interface TakeAnswer {
  type: 'gateway:rate-answer';
  id: number;
  /** In the order of the asks. */
  grants: Grant[];
}

const isTakeRequest = (message: unknown): message is TakeRequest =>
  (message as TakeRequest | undefined)?.type === 'gateway:rate-take';
const isTakeAnswer = (message: unknown): message is TakeAnswer =>
  (message as TakeAnswer | undefined)?.type === 'gateway:rate-answer';

/**
 * The primary's side of GATEWAY_WORKERS: the one count of every client (RATE_LIMIT_PER_MINUTE
 * and HEALTH_RATE_LIMIT_PER_MINUTE), whichever worker its connections landed on, kept as a
 * LeaseLedger per limit. Workers ask in batches (ClusterLimit); the grants come back in the
 * same order. What each worker holds is known here, and forgotten when it exits.
 */
export class PrimaryLimits {
  private readonly ledgers: Record<LimitName, LeaseLedger>;

  constructor(limits: { ratePerMinute: number; healthRatePerMinute: number }, workers: number) {
    this.ledgers = {
      api: new LeaseLedger(limits.ratePerMinute, workers),
      health: new LeaseLedger(limits.healthRatePerMinute, workers),
    };
  }

  /** Answers `worker`'s questions for as long as it lives; what it held is forgotten when it exits. */
  serve(worker: Worker): void {
    const held: Record<LimitName, Map<string, number>> = { api: new Map(), health: new Map() };
    const add = (limit: LimitName, client: string, credits: number) => {
      const total = (held[limit].get(client) ?? 0) + credits;
      if (total > 0) held[limit].set(client, total);
      else held[limit].delete(client);
    };
    worker.on('message', (message: unknown) => {
      if (!isTakeRequest(message)) return;
      const ledger = this.ledgers[message.limit];
      for (const [client, spent, returned] of message.settles) {
        ledger.settle(client, spent, returned);
        add(message.limit, client, -spent - returned);
      }
      const now = Date.now();
      const grants = message.asks.map(([client, wanted]) => {
        const grant = ledger.grant(client, wanted, now);
        add(message.limit, client, grant.granted);
        return grant;
      });
      if (worker.isConnected()) worker.send({ type: 'gateway:rate-answer', id: message.id, grants });
    });
    worker.once('exit', () => {
      for (const limit of ['api', 'health'] as const)
        for (const [client, credits] of held[limit]) this.ledgers[limit].forget(client, credits);
    });
  }

  close(): void {
    this.ledgers.api.close();
    this.ledgers.health.close();
  }
}

/** A worker reports what it spent, and hands back credits idle this long, at least this often. */
const SETTLE_EVERY_MS = 1_000;

/** One client as a worker sees it. */
interface ClientCredits {
  /** Requests this worker may still let through without asking. */
  credits: number;
  /** Credits spent since the last report to the primary. */
  spent: number;
  /** The lease part of the last grant: a new one is asked for when half of it is spent. */
  lease: number;
  /** Requests waiting for the primary's answer, in order of arrival. */
  waiting: ((wait: number) => void)[];
  asking: boolean;
  lastUsed: number;
}

/**
 * A worker's view of a limit kept by the primary (LeaseLedger). A request spends a credit this
 * worker holds for its client, at once and without a message; without one, it waits for the
 * primary, asked in one message per turn of the event loop for every client waiting. A new lease
 * is asked for ahead of need when half of the last is spent, so a busy client does not wait at
 * all. Every second the worker reports what it spent and hands back credits left idle. Off (0
 * per minute) it answers at once without asking.
 */
export class ClusterLimit implements ClientLimit {
  private static nextId = 0;
  private static readonly answers = new Map<number, (grants: Grant[]) => void>();
  private static listening = false;
  private readonly clients = new Map<string, ClientCredits>();
  private batch?: Set<string>;
  private settles: [string, number, number][] = [];
  private readonly settler?: NodeJS.Timeout;

  constructor(
    private readonly name: LimitName,
    private readonly perMinute: number,
  ) {
    if (!ClusterLimit.listening) {
      ClusterLimit.listening = true;
      process.on('message', (message: unknown) => {
        if (!isTakeAnswer(message)) return;
        const resolve = ClusterLimit.answers.get(message.id);
        ClusterLimit.answers.delete(message.id);
        resolve?.(message.grants);
      });
    }
    if (perMinute > 0) {
      this.settler = setInterval(() => this.settle(), SETTLE_EVERY_MS);
      this.settler.unref();
    }
  }

  take(client: string): number | Promise<number> {
    if (this.perMinute === 0) return 0;
    let state = this.clients.get(client);
    if (!state) {
      state = { credits: 0, spent: 0, lease: 0, waiting: [], asking: false, lastUsed: 0 };
      this.clients.set(client, state);
    }
    if (state.credits > 0 && state.waiting.length === 0) {
      this.spend(state);
      if (!state.asking && state.lease > 0 && state.credits * 2 <= state.lease) this.ask(client, state);
      return 0;
    }
    const waiting = state;
    if (!waiting.asking) this.ask(client, waiting);
    return new Promise<number>((resolve) => waiting.waiting.push(resolve));
  }

  private spend(state: ClientCredits): void {
    state.credits -= 1;
    state.spent += 1;
    state.lastUsed = Date.now();
  }

  private ask(client: string, state: ClientCredits): void {
    state.asking = true;
    this.schedule().add(client);
  }

  /** The batch of this turn of the event loop, sent at its end. */
  private schedule(): Set<string> {
    if (!this.batch) {
      this.batch = new Set();
      setImmediate(() => this.send());
    }
    return this.batch;
  }

  private send(): void {
    const batch = this.batch;
    this.batch = undefined;
    if (!batch) return;
    const settles = this.settles;
    this.settles = [];
    const asks: [string, number][] = [];
    const states: ClientCredits[] = [];
    for (const client of batch) {
      const state = this.clients.get(client);
      if (!state) continue;
      if (state.spent > 0) settles.push([client, state.spent, 0]);
      state.spent = 0;
      asks.push([client, state.waiting.length]);
      states.push(state);
    }
    // The primary is gone only when this worker is about to exit as well (cluster's rule).
    if (!process.send || !process.connected) {
      for (const state of states) {
        state.asking = false;
        for (const resolve of state.waiting.splice(0)) resolve(0);
      }
      return;
    }
    const id = (ClusterLimit.nextId += 1);
    if (asks.length > 0)
      ClusterLimit.answers.set(id, (grants) =>
        states.forEach((state, i) => this.granted(asks[i][0], state, grants[i], asks[i][1])),
      );
    const request: TakeRequest = { type: 'gateway:rate-take', id, limit: this.name, settles, asks };
    process.send(request);
  }

  /** The primary's answer for `client`: the waiting requests pass in order while credits last. */
  private granted(client: string, state: ClientCredits, grant: Grant | undefined, wanted: number): void {
    state.asking = false;
    if (!grant) {
      // An answer of the wrong shape (a primary of another build): nothing is held back.
      for (const resolve of state.waiting.splice(0)) resolve(0);
      return;
    }
    state.credits += grant.granted;
    state.lease = Math.max(0, grant.granted - wanted);
    while (state.waiting.length > 0 && state.credits > 0) {
      this.spend(state);
      state.waiting.shift()?.(0);
    }
    if (state.waiting.length === 0) return;
    // Those the primary refused wait; those that came after the question are asked for now.
    if (grant.wait > 0)
      for (const resolve of state.waiting.splice(0, wanted - grant.granted)) resolve(grant.wait);
    if (state.waiting.length > 0) this.ask(client, state);
  }

  /**
   * Every second: what was spent is reported, credits idle for a second are handed back and their
   * client forgotten here.
   */
  private settle(now = Date.now()): void {
    for (const [client, state] of this.clients) {
      if (state.asking || state.waiting.length > 0) continue;
      const idle = now - state.lastUsed >= SETTLE_EVERY_MS;
      const returned = idle ? state.credits : 0;
      if (state.spent > 0 || returned > 0) this.settles.push([client, state.spent, returned]);
      state.spent = 0;
      if (idle) this.clients.delete(client);
    }
    if (this.settles.length > 0) this.schedule();
  }

  close(): void {
    if (this.settler) clearInterval(this.settler);
  }
}
