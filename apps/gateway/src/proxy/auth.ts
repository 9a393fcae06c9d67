import type { AccessTokenClaims } from '@media/contracts';
import { JwksKeyStore, Unauthenticated, verifyAccessToken, type TokenRules } from '@media/platform/core';

const MAX_CACHED = 10_000;

/**
 * The gateway's token pre-check. Verification is RS256 against acl's JWKS (platform's
 * `verifyAccessToken`: algorithm pinned, iss/aud/exp checked). A client sends the same token for
 * up to 15 minutes, so verified tokens are remembered until they expire: the RSA check then
 * runs once per token instead of once per request on the hottest path. Only successes are
 * cached; the apps verify every request again anyway.
 */
export class TokenChecker {
  private readonly keys: JwksKeyStore;
  private readonly verified = new Map<string, AccessTokenClaims>();

  constructor(
    jwksUrl: string,
    private readonly rules: TokenRules,
  ) {
    this.keys = new JwksKeyStore(jwksUrl);
  }

  /** The claims of a token verified before and not yet expired, without waiting on anything. */
  cached(rawToken: string | undefined): AccessTokenClaims | undefined {
    if (!rawToken) return undefined;
    const claims = this.verified.get(rawToken);
    if (!claims) return undefined;
    if (claims.exp * 1000 > Date.now()) return claims;
    this.verified.delete(rawToken);
    return undefined;
  }

  /** The claims of a valid token; throws Unauthenticated (401) or UpstreamUnavailable (JWKS down). */
  async verify(rawToken: string | undefined): Promise<AccessTokenClaims> {
    if (!rawToken)
      throw new Unauthenticated('not_authenticated', 'Authentication credentials were not provided.');
    const cached = this.cached(rawToken);
    if (cached) return cached;
    const claims = await verifyAccessToken(this.keys, this.rules, rawToken);
    // acl always sets `exp` (docs/api/contract.md §1); a token without one would never expire.
    if (typeof claims.exp !== 'number')
      throw new Unauthenticated('token_invalid', 'The access token has no expiry.');
    // Map keeps insertion order, so dropping the first entry evicts the oldest token.
    if (this.verified.size >= MAX_CACHED) this.verified.delete(this.verified.keys().next().value as string);
    this.verified.set(rawToken, claims);
    return claims;
  }
}

/**
 * The single-use `?ticket=` of a browser's websocket upgrade (browsers cannot set headers on a
 * websocket), or undefined. Tokens are never accepted in a URL: they would land in logs.
 */
export function queryTicket(url: string): string | undefined {
  const query = url.indexOf('?');
  if (query === -1) return undefined;
  return new URLSearchParams(url.slice(query + 1)).get('ticket') ?? undefined;
}

/** Hides credentials a client put in the query (`ticket`, and a stray `access_token`) from log lines. */
export function redactUrl(url: string): string {
  return /(access_token|ticket)=/.test(url)
    ? url.replace(/([?&](?:access_token|ticket)=)[^&]*/g, '$1[redacted]')
    : url;
}
