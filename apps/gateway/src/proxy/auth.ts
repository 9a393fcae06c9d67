import type { IncomingMessage } from 'node:http';
import type { Socket } from 'node:net';
import type { AccessTokenClaims } from '@media/contracts';
import {
  bearerToken,
  JwksKeyStore,
  Unauthenticated,
  VerifiedTokens,
  verifyAccessToken,
  type TokenRules,
  type TokenVersions,
} from '@media/core';

/** A connection's last Authorization header and the token read from it. */
const LAST_BEARER = Symbol('lastBearer');

/**
 * The gateway's token pre-check. Verification is RS256 against acl's JWKS (platform's
 * `verifyAccessToken`: algorithm pinned, iss/aud/exp checked). A client sends the same token for
 * up to 15 minutes, so verified tokens are remembered until they expire or their key is retired
 * (the platform's VerifiedTokens, as in every app): the RSA check then runs once per token
 * instead of once per request on the hottest path. A revoked token (below its user's version in
 * `versions`) is refused with 401 `token_revoked`, cached or not.
 */
export class TokenChecker {
  private readonly keys: JwksKeyStore;
  private readonly verified: VerifiedTokens;

  constructor(
    jwksUrl: string,
    private readonly rules: TokenRules,
    versions?: TokenVersions,
  ) {
    this.keys = new JwksKeyStore(jwksUrl);
    this.verified = new VerifiedTokens(this.keys, versions);
  }

  /**
   * The bearer token of `req`'s Authorization header. A client sends the same header on every
   * request of a connection: the connection remembers its last one, so the token string is the
   * one the cache has seen (its hash known) instead of a new 1 KB string to parse and hash.
   */
  bearerOf(req: IncomingMessage): string | undefined {
    const header = req.headers.authorization;
    if (header === undefined) return undefined;
    const socket = req.socket as Socket & { [LAST_BEARER]?: { header: string; raw: string | undefined } };
    const last = socket[LAST_BEARER];
    if (last !== undefined && last.header === header) return last.raw;
    const raw = bearerToken(header);
    socket[LAST_BEARER] = { header, raw };
    return raw;
  }

  /** The claims of a token verified before and still valid, without waiting on anything. */
  cached(rawToken: string | undefined): AccessTokenClaims | undefined {
    return rawToken ? this.verified.get(rawToken) : undefined;
  }

  /** The claims of a valid token; throws Unauthenticated (401) or UpstreamUnavailable (JWKS down). */
  async verify(rawToken: string | undefined): Promise<AccessTokenClaims> {
    if (!rawToken)
      throw new Unauthenticated('not_authenticated', 'Authentication credentials were not provided.');
    const cached = this.verified.get(rawToken);
    if (cached) return cached;
    const claims = await verifyAccessToken(this.keys, this.rules, rawToken);
    this.verified.remember(rawToken, claims);
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
