import type { KeyObject } from 'node:crypto';
import type { AccessTokenClaims } from '@media/contracts';
import jwt from 'jsonwebtoken';
import type { AuthConfig } from '../config/platform-config';
import { Unauthenticated } from '../errors/domain-errors';
import type { JwksKeyStore } from './jwks';

export interface TokenRules {
  issuer: string;
  audience: string;
  /** The longest `exp - iat` accepted (acl's `JWT_ACCESS_TTL`); default 15 minutes. */
  maxLifetimeMs?: number;
  /** Clock difference tolerated on `iat` (and the lifetime); default 30 s. */
  clockSkewMs?: number;
}

/** The rules of the configured issuer, audience, lifetime and skew. */
export function tokenRules(auth: AuthConfig): TokenRules {
  return {
    issuer: auth.issuer,
    audience: auth.audience,
    maxLifetimeMs: auth.accessTtl,
    clockSkewMs: auth.clockSkew,
  };
}

export const DEFAULT_TOKEN_LIFETIME_MS = 15 * 60_000;
export const DEFAULT_CLOCK_SKEW_MS = 30_000;

const invalid = (detail: string) => new Unauthenticated('token_invalid', detail);

/**
 * The time rules jsonwebtoken leaves to us (docs/api/contract.md §1): `exp` is required (a token without it
 * would never expire), `iat` may not lie in the future beyond a small skew, and no token may
 * live longer than acl issues them for, so a leaked signing path cannot mint long-lived tokens.
 */
export function checkTokenTimes(
  claims: Partial<AccessTokenClaims>,
  rules: TokenRules,
  now = Date.now(),
): void {
  const maxLifetime = rules.maxLifetimeMs ?? DEFAULT_TOKEN_LIFETIME_MS;
  const skew = rules.clockSkewMs ?? DEFAULT_CLOCK_SKEW_MS;
  if (typeof claims.exp !== 'number' || !Number.isFinite(claims.exp))
    throw invalid('The access token has no expiry.');
  if (claims.iat !== undefined) {
    if (typeof claims.iat !== 'number' || !Number.isFinite(claims.iat))
      throw invalid('The access token has an invalid issue time.');
    if (claims.iat * 1000 > now + skew) throw invalid('The access token is issued in the future.');
    if ((claims.exp - claims.iat) * 1000 > maxLifetime) throw invalid('The access token lives too long.');
  }
  if (claims.exp * 1000 > now + maxLifetime + skew) throw invalid('The access token lives too long.');
}

/** The algorithm is pinned: `alg: none`, HS* (even keyed with the public key) are refused. */
export const TOKEN_ALGORITHMS: jwt.Algorithm[] = ['RS256'];

/** Maps jsonwebtoken's failures to the contract's 401 codes. */
export function authFailure(error: unknown): Unauthenticated {
  if (error instanceof Unauthenticated) return error;
  if (error instanceof jwt.TokenExpiredError)
    return new Unauthenticated('token_expired', 'The access token has expired.');
  if (error instanceof Error && error.message === 'No auth token') {
    return new Unauthenticated('not_authenticated', 'Authentication credentials were not provided.');
  }
  return new Unauthenticated('token_invalid', 'The access token is invalid.');
}

/** Reads the bearer token of an Authorization header, or undefined. */
export function bearerToken(header: string | undefined): string | undefined {
  const match = /^Bearer\s+(\S+)$/i.exec(header ?? '');
  return match?.[1];
}

function kidOf(rawToken: string): string {
  const decoded = jwt.decode(rawToken, { complete: true });
  const kid = decoded?.header.kid;
  if (!decoded || decoded.header.alg !== 'RS256' || typeof kid !== 'string') {
    throw new Unauthenticated('token_invalid', 'The access token is invalid.');
  }
  return kid;
}

/**
 * The parsed verification key of a raw token from its `kid`, refusing what cannot be ours
 * (a PEM would be parsed again by jsonwebtoken on every verification). Throws UpstreamUnavailable (503) when acl could not be asked.
 */
export async function keyObjectForToken(keys: JwksKeyStore, rawToken: string): Promise<KeyObject> {
  const key = await keys.getKeyObject(kidOf(rawToken));
  if (!key) throw new Unauthenticated('token_invalid', 'The access token is signed with an unknown key.');
  return key;
}

/** Verifies a token outside passport (the gateway's pre-check, websocket handshakes). */
export async function verifyAccessToken(
  keys: JwksKeyStore,
  rules: TokenRules,
  rawToken: string,
): Promise<AccessTokenClaims> {
  const key = await keyObjectForToken(keys, rawToken);
  let claims: AccessTokenClaims;
  try {
    claims = jwt.verify(rawToken, key, {
      algorithms: TOKEN_ALGORITHMS,
      issuer: rules.issuer,
      audience: rules.audience,
    }) as AccessTokenClaims;
  } catch (error) {
    throw authFailure(error);
  }
  checkTokenTimes(claims, rules);
  return claims;
}
