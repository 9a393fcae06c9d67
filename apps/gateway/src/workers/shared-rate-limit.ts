import type { Worker } from 'node:cluster';
import { RateLimited } from '@media/core';
import { RateLimiter } from '../proxy/rate-limit';

/** Which of the gateway's per-client limits a key is counted against. */
export type LimitName = 'api' | 'health';

/** What the gateway asks of a per-client limit: 0 when allowed, else the seconds to wait. */
export interface ClientLimit {
  take(client: string): number | Promise<number>;
  close(): void;
}

/**
 * Runs `then` once `limit` let `client` through: at once when the answer is known here (one
 * process, or the limit off), else when the primary answered. A client over the limit is a 429
 * (RateLimited): thrown when answered at once, else handed to `fail`, as is whatever `then` throws.
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

interface TakeRequest {
  type: 'gateway:rate-take';
  id: number;
  limit: LimitName;
  clients: string[];
}

interface TakeAnswer {
  type: 'gateway:rate-answer';
  id: number;
  waits: number[];
}

const isTakeRequest = (message: unknown): message is TakeRequest =>
  (message as TakeRequest | undefined)?.type === 'gateway:rate-take';
const isTakeAnswer = (message: unknown): message is TakeAnswer =>
  (message as TakeAnswer | undefined)?.type === 'gateway:rate-answer';

/**
 * The primary's side of GATEWAY_WORKERS: the one count of every client (RATE_LIMIT_PER_MINUTE
 * and HEALTH_RATE_LIMIT_PER_MINUTE), whichever worker its connections landed on. Workers ask in
 * batches (ClusterLimit); the answers come back in the same order.
 */
export class PrimaryLimits {
  private readonly limits: Record<LimitName, RateLimiter>;

  constructor(limits: { ratePerMinute: number; healthRatePerMinute: number }) {
    this.limits = {
      api: new RateLimiter(limits.ratePerMinute),
      health: new RateLimiter(limits.healthRatePerMinute),
    };
  }

  /** Answers `worker`'s questions for as long as it lives. */
  serve(worker: Worker): void {
    worker.on('message', (message: unknown) => {
      if (!isTakeRequest(message)) return;
      const limiter = this.limits[message.limit];
      const now = Date.now();
      const answer: TakeAnswer = {
        type: 'gateway:rate-answer',
        id: message.id,
        waits: message.clients.map((client) => limiter.take(client, now)),
      };
      if (worker.isConnected()) worker.send(answer);
    });
  }

  close(): void {
    this.limits.api.close();
    this.limits.health.close();
  }
}

/**
 * A worker's view of a limit kept by the primary: the clients asked for during one turn of the
 * event loop go to the primary in one message, so a worker under load sends a few messages per
 * turn rather than one per request. Off (0 per minute) it answers at once without asking.
 */
export class ClusterLimit implements ClientLimit {
  private static nextId = 0;
  private static readonly waiting = new Map<number, (waits: number[]) => void>();
  private static listening = false;
  private batch?: { clients: string[]; answers: ((wait: number) => void)[] };

  constructor(
    private readonly name: LimitName,
    private readonly perMinute: number,
  ) {
    if (!ClusterLimit.listening) {
      ClusterLimit.listening = true;
      process.on('message', (message: unknown) => {
        if (!isTakeAnswer(message)) return;
        const resolve = ClusterLimit.waiting.get(message.id);
        ClusterLimit.waiting.delete(message.id);
        resolve?.(message.waits);
      });
    }
  }

  take(client: string): number | Promise<number> {
    if (this.perMinute === 0) return 0;
    if (!this.batch) {
      this.batch = { clients: [], answers: [] };
      setImmediate(() => this.send());
    }
    const batch = this.batch;
    batch.clients.push(client);
    return new Promise<number>((resolve) => batch.answers.push(resolve));
  }

  private send(): void {
    const batch = this.batch;
    this.batch = undefined;
    if (!batch) return;
    // The primary is gone only when this worker is about to exit as well (cluster's rule).
    if (!process.send || !process.connected) {
      for (const answer of batch.answers) answer(0);
      return;
    }
    const id = (ClusterLimit.nextId += 1);
    ClusterLimit.waiting.set(id, (waits) => batch.answers.forEach((answer, i) => answer(waits[i] ?? 0)));
    const request: TakeRequest = { type: 'gateway:rate-take', id, limit: this.name, clients: batch.clients };
    process.send(request);
  }

  close(): void {
    // Nothing of its own: the counts live in the primary.
  }
}
