import type { AccessTokenClaims } from '@media/contracts';
import jwt from 'jsonwebtoken';
import { Unauthenticated } from '../errors/domain-errors';
import type { JwksKeyStore } from './jwks';

export interface TokenRules {
  issuer: string;
  audience: string;
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

/** Resolves the verification key of a raw token from its `kid`, refusing what cannot be ours. */
export async function keyForToken(keys: JwksKeyStore, rawToken: string): Promise<string> {
  const decoded = jwt.decode(rawToken, { complete: true });
  const kid = decoded?.header.kid;
  if (!decoded || decoded.header.alg !== 'RS256' || typeof kid !== 'string') {
    throw new Unauthenticated('token_invalid', 'The access token is invalid.');
  }
  const key = await keys.getKey(kid);
  if (!key) throw new Unauthenticated('token_invalid', 'The access token is signed with an unknown key.');
  return key;
}

/** Verifies a token outside passport (the gateway's pre-check, websocket handshakes). */
export async function verifyAccessToken(
  keys: JwksKeyStore,
  rules: TokenRules,
  rawToken: string,
): Promise<AccessTokenClaims> {
  const key = await keyForToken(keys, rawToken);
  try {
    return jwt.verify(rawToken, key, {
      algorithms: TOKEN_ALGORITHMS,
      issuer: rules.issuer,
      audience: rules.audience,
    }) as AccessTokenClaims;
  } catch (error) {
    throw authFailure(error);
  }
}
