import { createPublicKey, type JsonWebKey, type KeyObject } from 'node:crypto';
import { UpstreamUnavailable } from '../errors/domain-errors';

interface Jwk {
  kid?: string;
  kty: string;
  alg?: string;
  use?: string;
  n?: string;
  e?: string;
}

/** Tuning of a JwksKeyStore; every field has a safe default. */
export interface JwksOptions {
  /**
   * Least time between two refreshes of a stale set, and the first wait of the back-off while acl
   * is unreachable. A new `kid` is not held to it (see JwksKeyStore).
   */
  minRefreshMs?: number;
  /** How long a `kid` that a refresh did not find stays refused without asking acl again. */
  unknownKidMs?: number;
  /**
   * Least time between the starts of two refreshes for new kids: a request with a new kid waits
   * (at most this long) for the next refresh rather than being refused, so a flood of made-up
   * kids costs acl at most one fetch per this interval.
   */
  newKidGapMs?: number;
  fetchTimeoutMs?: number;
  /** How long a fetched set stays fresh when acl sends no `Cache-Control: max-age`. */
  defaultTtlMs?: number;
  /** Upper bound of a `max-age`, so a retired key is dropped in bounded time. */
  maxTtlMs?: number;
  /** Longest wait between attempts while acl is unreachable (the wait doubles from minRefreshMs). */
  maxBackoffMs?: number;
}

const unreachable = () =>
  new UpstreamUnavailable('The signing keys could not be fetched from acl; try again shortly.');

/** `max-age` of a Cache-Control header in ms, or undefined. */
export function cacheControlMaxAgeMs(header: string | null | undefined): number | undefined {
  const match = /(?:^|,)\s*(?:s-)?max-age\s*=\s*"?(\d+)"?/i.exec(header ?? '');
  if (!match) return undefined;
  if (/(?:^|,)\s*no-(?:cache|store)\b/i.test(header ?? '')) return 0;
  return Number(match[1]) * 1000;
}

/** Kids a refresh did not find, remembered at most (the oldest go first). */
const MAX_UNKNOWN_KIDS = 1_000;

/**
 * acl's public signing keys, fetched from its JWKS and kept as parsed KeyObjects (parsing a key
 * costs far more than a verification, so it is done once per key, not per request).
 *
 * - A fetched set is fresh for its `Cache-Control: max-age` (bounded); a stale set keeps
 *   answering while one refresh runs in the background, so a retired key disappears within one
 *   max-age and an acl outage does not stop tokens signed with known keys.
 * - A `kid` not in the set is looked up by a refresh that started after it was seen, without any
 *   cooldown: acl publishes a key before it signs with it, so such a refresh finds a rotated key
 *   and a rotation never refuses a valid token. Refreshes are shared: one runs at a time, the
 *   next starts `newKidGapMs` after the last at the earliest, and everyone waiting for it shares
 *   it (a made-up kid per request costs acl one fetch per interval, never one per request).
 *   Only a `kid` that a refresh did not find is refused outright, without asking again for
 *   `unknownKidMs`.
 * - When acl cannot be reached and the answer depends on it (cold cache, unknown `kid`), the
 *   caller gets 503 `upstream_unavailable`, never a 401 that would make clients discard a good
 *   token. Attempts while acl is down back off exponentially.
 */
export class JwksKeyStore {
  private keys = new Map<string, KeyObject>();
  private pems = new Map<string, string>();
  private freshUntil = 0;
  private lastAttempt = Number.NEGATIVE_INFINITY;
  private failures = 0;
  /** The running refresh, and the one queued behind it. */
  private inflight?: { done: Promise<void> };
  private queued?: Promise<void>;
  /** Kids a refresh did not find, and when. */
  private readonly unknown = new Map<string, number>();
  private readonly options: Required<JwksOptions>;

  constructor(
    private readonly url: string,
    minRefreshMs: number | JwksOptions = 1_000,
    fetchTimeoutMs = 2_000,
  ) {
    const given = typeof minRefreshMs === 'number' ? { minRefreshMs, fetchTimeoutMs } : minRefreshMs;
    this.options = {
      minRefreshMs: given.minRefreshMs ?? 1_000,
      unknownKidMs: given.unknownKidMs ?? 10_000,
      newKidGapMs: given.newKidGapMs ?? 200,
      fetchTimeoutMs: given.fetchTimeoutMs ?? 2_000,
      defaultTtlMs: given.defaultTtlMs ?? 300_000,
      maxTtlMs: given.maxTtlMs ?? 3_600_000,
      maxBackoffMs: given.maxBackoffMs ?? 60_000,
    };
  }

  /** The PEM public key for `kid`, or undefined when acl does not publish it. */
  async getKey(kid: string): Promise<string | undefined> {
    const key = await this.getKeyObject(kid);
    if (!key) return undefined;
    let pem = this.pems.get(kid);
    if (!pem) {
      pem = key.export({ type: 'spki', format: 'pem' }).toString();
      this.pems.set(kid, pem);
    }
    return pem;
  }

  /**
   * The parsed public key for `kid`, or undefined when acl does not publish it; throws
   * UpstreamUnavailable when acl could not be asked.
   */
  async getKeyObject(kid: string): Promise<KeyObject | undefined> {
    const known = this.published(kid);
    if (known) return known;
    // acl unreachable: one attempt at a time, backing off; 503 meanwhile.
    if (this.failures > 0) {
      if (this.inflight) await this.inflight.done;
      else if (this.mayAttempt()) await this.refresh();
      else throw unreachable();
      return this.keys.get(kid);
    }
    const refusedAt = this.unknown.get(kid);
    if (refusedAt !== undefined && Date.now() - refusedAt < this.options.unknownKidMs) return undefined;
    await this.refreshStartingLater();
    const key = this.keys.get(kid);
    if (!key) this.rememberUnknown(kid);
    return key;
  }

  /**
   * Waits for a refresh that starts after now: at once when none runs and the last one started
   * `newKidGapMs` ago or more, else the next one, which every caller until it starts shares.
   */
  private refreshStartingLater(): Promise<void> {
    const wait = this.lastAttempt + this.options.newKidGapMs - Date.now();
    if (!this.inflight && wait <= 0) return this.refresh();
    this.queued ??= (this.inflight?.done.catch(() => undefined) ?? Promise.resolve())
      .then(() => {
        const left = this.lastAttempt + this.options.newKidGapMs - Date.now();
        return left > 0 ? new Promise((resolve) => setTimeout(resolve, left)) : undefined;
      })
      .then(() => {
        this.queued = undefined;
        return this.refresh();
      });
    return this.queued;
  }

  private rememberUnknown(kid: string): void {
    this.unknown.delete(kid);
    this.unknown.set(kid, Date.now());
    if (this.unknown.size > MAX_UNKNOWN_KIDS) this.unknown.delete(this.unknown.keys().next().value as string);
  }

  /**
   * The key published for `kid` in the set held now, without waiting: a stale set still answers
   * while one refresh runs in the background, so a retired key stops counting within one max-age.
   */
  published(kid: string): KeyObject | undefined {
    const known = this.keys.get(kid);
    if (known && Date.now() >= this.freshUntil && this.mayAttempt()) this.refresh().catch(() => undefined);
    return known;
  }

  /** The kids currently known (for tests and diagnostics). */
  knownKids(): string[] {
    return [...this.keys.keys()];
  }

  private mayAttempt(): boolean {
    const wait =
      this.failures === 0
        ? this.options.minRefreshMs
        : Math.min(this.options.maxBackoffMs, this.options.minRefreshMs * 2 ** (this.failures - 1));
    return Date.now() - this.lastAttempt >= wait;
  }

  private refresh(): Promise<void> {
    if (this.inflight) return this.inflight.done;
    const running = {
      done: this.load().finally(() => {
        if (this.inflight === running) this.inflight = undefined;
      }),
    };
    this.inflight = running;
    return running.done;
  }

  private async load(): Promise<void> {
    this.lastAttempt = Date.now();
    let body: { keys?: Jwk[] };
    let maxAge: number | undefined;
    try {
      const response = await fetch(this.url, { signal: AbortSignal.timeout(this.options.fetchTimeoutMs) });
      if (!response.ok) throw new Error(`JWKS answered ${response.status}`);
      body = (await response.json()) as { keys?: Jwk[] };
      maxAge = cacheControlMaxAgeMs(response.headers.get('cache-control'));
    } catch {
      this.failures += 1;
      throw unreachable();
    }
    this.failures = 0;
    const ttl = Math.min(this.options.maxTtlMs, maxAge ?? this.options.defaultTtlMs);
    this.freshUntil = Date.now() + Math.max(ttl, this.options.minRefreshMs);
    const next = new Map<string, KeyObject>();
    for (const jwk of body.keys ?? []) {
      if (!jwk.kid || jwk.kty !== 'RSA' || (jwk.alg && jwk.alg !== 'RS256')) continue;
      // A key already parsed is kept as is: parsing is the expensive part.
      const existing = this.keys.get(jwk.kid);
      try {
        next.set(jwk.kid, existing ?? createPublicKey({ key: jwk as unknown as JsonWebKey, format: 'jwk' }));
      } catch {
        /* a malformed entry is skipped, the others still count */
      }
    }
    for (const kid of this.pems.keys()) if (!next.has(kid)) this.pems.delete(kid);
    // A key acl stopped publishing turned out unknown in this refresh: held back like any other.
    for (const kid of this.keys.keys()) if (!next.has(kid)) this.rememberUnknown(kid);
    for (const kid of next.keys()) this.unknown.delete(kid);
    this.keys = next;
  }
}
