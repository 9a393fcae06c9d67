import type { AccessTokenClaims } from '@media/contracts';
import { tokenVersionOf } from './token-versions';

/** The authenticated caller, read from a verified access token. */
export interface AuthUser {
  id: string;
  email: string;
  name: string;
  employee_number: string | null;
  groups: string[];
  roles: string[];
  permissions: string[];
  /** The token version of the access token it was read from (0 when absent). */
  ver: number;
}

export function userFromClaims(claims: AccessTokenClaims): AuthUser {
  return {
    id: claims.sub,
    email: claims.email,
    name: claims.name,
    employee_number: claims.employee_number ?? null,
    groups: Array.isArray(claims.groups) ? claims.groups.map(String) : [],
    roles: Array.isArray(claims.roles) ? claims.roles.map(String) : [],
    permissions: Array.isArray(claims.permissions) ? claims.permissions.map(String) : [],
    ver: tokenVersionOf(claims),
  };
}

/** `*` grants every permission (docs/api/contract.md §1). */
export function hasPermission(user: Pick<AuthUser, 'permissions'>, permission: string): boolean {
  return user.permissions.includes('*') || user.permissions.includes(permission);
}

/** A 403's detail names what the caller lacks (docs/api/contract.md §2): `Requires the permission lineup:write.` */
export function requiresAll(missing: readonly string[]): string {
  return missing.length === 1
    ? `Requires the permission ${missing[0]}.`
    : `Requires the permissions ${missing.join(', ')}.`;
}

/** The 403 detail of a route that needs any one of `wanted`. */
export function requiresAny(wanted: readonly string[]): string {
  return wanted.length === 1 ? requiresAll(wanted) : `Requires one of the permissions ${wanted.join(', ')}.`;
}
