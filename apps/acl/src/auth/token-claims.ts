import { randomUUID } from 'node:crypto';
import type { AccessTokenClaims } from '@media/contracts';
import type { AuthUser } from '@media/core';

/** What a token says about its holder: the same fields every app reads back from it. */
export type TokenSubject = AuthUser;

export interface TokenRules {
  issuer: string;
  audience: string;
  ttlMs: number;
}

/**
 * The claims of an access token (docs/api/contract.md §1). Groups, roles and permissions are copied in, so
 * every app can authorise without asking acl; a change shows at the next token.
 */
export function buildAccessClaims(
  subject: TokenSubject,
  rules: TokenRules,
  now: Date,
  jti: string = randomUUID(),
): AccessTokenClaims {
  const iat = Math.floor(now.getTime() / 1000);
  return {
    sub: subject.id,
    email: subject.email,
    name: subject.name,
    employee_number: subject.employee_number,
    groups: [...subject.groups],
    roles: [...subject.roles],
    permissions: [...subject.permissions],
    iss: rules.issuer,
    aud: rules.audience,
    iat,
    exp: iat + Math.floor(rules.ttlMs / 1000),
    jti,
    ver: subject.ver,
  };
}
