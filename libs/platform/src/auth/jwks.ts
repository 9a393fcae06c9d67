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
  /** Least time between two fetches, whatever asks for them (unknown `kid`s cannot hammer acl). */
  minRefreshMs?: number;
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

/**
 * acl's public signing keys, fetched from its JWKS and kept as parsed KeyObjects (parsing a key
 * costs far more than a verification, so it is done once per key, not per request).
 *
 * - A fetched set is fresh for its `Cache-Control: max-age` (bounded); a stale set keeps
 *   answering while one refresh runs in the background, so a retired key disappears within one
 *   max-age and an acl outage does not stop tokens signed with known keys.
 * - An unknown `kid` triggers one refresh (shared by concurrent callers, at most one per
 *   `minRefreshMs`), so a rotated key is picked up without a restart.
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
  private inflight?: Promise<void>;
  private readonly options: Required<JwksOptions>;

  constructor(
    private readonly url: string,
    minRefreshMs: number | JwksOptions = 1_000,
    fetchTimeoutMs = 2_000,
  ) {
    const given = typeof minRefreshMs === 'number' ? { minRefreshMs, fetchTimeoutMs } : minRefreshMs;
    this.options = {
      minRefreshMs: given.minRefreshMs ?? 1_000,
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
    if (this.inflight || this.mayAttempt()) await this.refresh();
    else if (this.failures > 0) throw unreachable();
    return this.keys.get(kid);
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
    this.inflight ??= this.load().finally(() => (this.inflight = undefined));
    return this.inflight;
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
    this.keys = next;
  }
}
