import type { KeyObject } from 'node:crypto';
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
  key: KeyObject;
}

/** Bytes of tokens (and their claims) one process keeps: about 10,000 tokens of acl's size. */
const MAX_BYTES = 8 * 1024 * 1024;
/** A token's claims and the entry around it, besides the token's own characters. */
const ENTRY_BYTES = 512;

/**
 * Tokens this process has verified, by their exact text, until they expire or acl stops
 * publishing their key. A client sends one token for up to its whole lifetime (15 minutes), so
 * the RSA check and the rest of the verification run once per token instead of once per request.
 * Only successes are kept; a token whose key was retired, or that has expired, is verified again
 * from scratch and refused as before. Bounded by bytes, least recently used first out.
 *
 * Revocation is checked here, on every request, cached or not: a token below its user's version
 * (TokenVersions, one Map lookup) is refused with 401 `token_revoked` by `get` and `remember`.
 */
export class VerifiedTokens {
  private readonly cache = new LRUCache<string, Verified>({
    maxSize: MAX_BYTES,
    sizeCalculation: (_value, token) => token.length + ENTRY_BYTES,
  });

  constructor(
    private readonly keys: PublishedKeys,
    private readonly versions?: TokenVersions,
  ) {}

  /**
   * The claims of `rawToken` if it was verified before, has not expired and its key still counts;
   * throws 401 `token_revoked` when its user's tokens were revoked since.
   */
  get(rawToken: string, now = Date.now()): AccessTokenClaims | undefined {
    const hit = this.cache.get(rawToken);
    if (!hit) return undefined;
    // jsonwebtoken's rule: expired from the second `exp` on.
    if (Math.floor(now / 1000) < hit.claims.exp && this.keys.published(hit.kid) === hit.key) {
      this.versions?.check(hit.claims);
      return hit.claims;
    }
    this.cache.delete(rawToken);
    return undefined;
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
    this.cache.set(rawToken, { claims, kid, key });
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
