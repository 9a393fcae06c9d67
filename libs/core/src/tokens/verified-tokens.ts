import { createHash, type KeyObject } from 'node:crypto';
import type { AccessTokenClaims } from '@media/contracts';
import { LRUCache } from 'lru-cache';
import type { TokenVersions } from './token-versions';

/** What the cache asks of the key store: the key acl publishes now for a kid (JwksKeyStore). */
export interface PublishedKeys {
  published(kid: string): KeyObject | undefined;
}

interface Verified {
  claims: AccessTokenClaims;
  kid: string;
  /** The verifying key's modulus and exponent: each app's key store holds its own KeyObject. */
  key: string;
  /** What the entry costs on the heap, estimated from its claims (see `entryBytes`). */
  bytes: number;
}

/** Bytes of verified tokens one process keeps: about 8,000 tokens of acl's usual size. */
const MAX_BYTES = 8 * 1024 * 1024;
/** How often entries past their `exp` are dropped, whether or not their token comes back. */
const PURGE_EVERY_MS = 60_000;

/**
 * An entry's heap cost: measured at 1,134 bytes for a token whose payload is 509 bytes of JSON
 * (an EDITOR's nine permissions): the decoded claims take about twice the JSON's length, the key
 * (a 43-character SHA-256) and the cache's node the rest.
 */
function entryBytes(rawToken: string): number {
  const payload = rawToken.split('.', 2)[1] ?? '';
  return 2 * Math.ceil((payload.length * 3) / 4) + 256;
}

/**
 * One cache per process, keyed by the token's SHA-256: the apps of one process (the embedded
 * default runs nine) share each token's claims instead of holding a copy each, and no entry
 * keeps the request's `Authorization` header alive (a slice of it would).
 */
const shared = new LRUCache<string, Verified>({
  maxSize: MAX_BYTES,
  sizeCalculation: (entry) => entry.bytes,
});
let purging: NodeJS.Timeout | undefined;

const fingerprints = new WeakMap<KeyObject, string>();
function fingerprint(key: KeyObject): string {
  let known = fingerprints.get(key);
  if (known === undefined) {
    const { n, e, x, y, crv } = key.export({ format: 'jwk' });
    known = [n, e, x, y, crv].join('.');
    fingerprints.set(key, known);
  }
  return known;
}

const digest = (rawToken: string) => createHash('sha256').update(rawToken).digest('base64url');

/**
 * The digests of tokens found valid lately, by the token itself: a client sends the same token on
 * every request, and hashing it each time was a native hash object per request for the garbage
 * collector (a few microseconds of a request). Only tokens that were in the cache get an entry (so
 * a flood of made-up tokens cannot fill it); at most MAX_DIGESTS, emptied whole when full. An
 * entry holds the token text (about 1 KB), so at most about 1 MB.
 */
const MAX_DIGESTS = 1024;
const digests = new Map<string, string>();
const digestOf = (rawToken: string) => digests.get(rawToken) ?? digest(rawToken);
function rememberDigest(rawToken: string, id: string): void {
  if (digests.has(rawToken)) return;
  if (digests.size >= MAX_DIGESTS) digests.clear();
  digests.set(rawToken, id);
}
const expired = (entry: Verified, now: number) => Math.floor(now / 1000) >= entry.claims.exp;

/**
 * Tokens this process has verified, until they expire or acl stops publishing their key. A client
 * sends one token for up to its whole lifetime (15 minutes), so the RSA check and the rest of the
 * verification run once per token instead of once per request. Only successes are kept; a token
 * whose key was retired, or that has expired, is verified again from scratch and refused as
 * before. Bounded by bytes, least recently used first out, and emptied of expired tokens every
 * minute.
 */
export class VerifiedTokens {
  constructor(
    private readonly keys: PublishedKeys,
    private readonly versions?: TokenVersions,
  ) {
    if (!purging) {
      purging = setInterval(() => VerifiedTokens.purgeExpired(), PURGE_EVERY_MS);
      purging.unref();
    }
  }

  /**
   * The claims of `rawToken` if it was verified before, has not expired and its key still counts;
   * throws 401 `token_revoked` when its user's tokens were revoked since.
   */
  get(rawToken: string, now = Date.now()): AccessTokenClaims | undefined {
    const id = digestOf(rawToken);
    const hit = shared.get(id);
    if (!hit) return undefined;
    rememberDigest(rawToken, id);
    // jsonwebtoken's rule: expired from the second `exp` on.
    if (expired(hit, now)) {
      shared.delete(id);
      return undefined;
    }
    const key = this.keys.published(hit.kid);
    // Another app of this process may still trust a key this one has seen retired: only forget
    // the entry when it has expired.
    if (!key || fingerprint(key) !== hit.key) return undefined;
    this.versions?.check(hit.claims);
    return hit.claims;
  }

  /**
   * Keeps a token that was just verified in full, with the key it was verified against; throws
   * 401 `token_revoked` (and keeps nothing) for a revoked one.
   */
  remember(rawToken: string, claims: AccessTokenClaims): void {
    this.versions?.check(claims);
    const kid = headerKid(rawToken);
    const key = kid === undefined ? undefined : this.keys.published(kid);
    if (kid === undefined || !key || typeof claims.exp !== 'number') return;
    shared.set(digest(rawToken), { claims, kid, key: fingerprint(key), bytes: entryBytes(rawToken) });
  }

  /** Drops every entry whose token has expired at `now`; how many are left. */
  static purgeExpired(now = Date.now()): number {
    for (const [id, entry] of shared.entries()) if (expired(entry, now)) shared.delete(id);
    return shared.size;
  }
}

/** The `kid` of a token's header, read without verifying (the token was verified just before). */
function headerKid(rawToken: string): string | undefined {
  try {
    const header = JSON.parse(Buffer.from(rawToken.split('.', 1)[0], 'base64url').toString('utf8')) as {
      kid?: unknown;
    };
    return typeof header.kid === 'string' ? header.kid : undefined;
  } catch {
    return undefined;
  }
}
