export const AclSubjects = {
  usersGetMany: 'acl.users.get-many',
  usersReports: 'acl.users.reports',
  usersExists: 'acl.users.exists',
  usersPermissions: 'acl.users.permissions',
  usersHolding: 'acl.users.holding',
  groupsMembers: 'acl.groups.members',
  usersTokenVersions: 'acl.users.token-versions',
  auditSignCheckpoint: 'acl.audit.sign-checkpoint',
} as const;

/**
 * The most ids one `acl.users.get-many` or `acl.users.exists` request may carry: acl refuses more
 * (422), so a caller with more ids asks in pages of this size (`idPages`). Bounded by the reply:
 * a profile is a few hundred bytes of JSON and a NATS message at most 1 MiB by default
 * (`max_payload`), which 5,000 profiles overflow.
 */
export const ACL_USERS_MAX_IDS = 1_000;

/** Distinct ids in pages of at most `ACL_USERS_MAX_IDS`, in first-seen order. */
export function idPages(ids: Iterable<string>, size: number = ACL_USERS_MAX_IDS): string[][] {
  const unique = [...new Set(ids)];
  const pages: string[][] = [];
  for (let i = 0; i < unique.length; i += size) pages.push(unique.slice(i, i + size));
  return pages;
}

export const AclEvents = {
  correspondentInvited: 'acl.correspondent.invited',
  userTokensRevoked: 'acl.user.tokens-revoked',
} as const;

/**
 * acl's routes reachable without a token (docs/api/contract.md §1), as the gateway matches them before
 * forwarding (`{name}` is one path segment). Besides these, every app's `/health/*` and
 * `/openapi.json` are public. acl marks the same routes `@Public()`; a test keeps both alike.
 */
export const ACL_PUBLIC_ROUTES = [
  { method: 'POST', path: '/acl/api/v1/auth/token' },
  { method: 'POST', path: '/acl/api/v1/auth/refresh' },
  { method: 'POST', path: '/acl/api/v1/auth/invitations/{token}/accept' },
  { method: 'GET', path: '/acl/.well-known/jwks.json' },
  { method: 'GET', path: '/acl/.well-known/audit-keys.json' },
] as const;

export type UserStatus = 'INVITED' | 'ACTIVE' | 'DISABLED';

/** A user as other apps see it; never carries credentials. */
export interface UserProfile {
  id: string;
  /** `"first last"`; the email when the user has no name yet (an invited correspondent). */
  name: string;
  email: string;
  first_name: string | null;
  last_name: string | null;
  employee_number: string | null;
  manager_id: string | null;
  status: UserStatus;
  /** Role codes, byte order. */
  roles: string[];
  /** Effective permissions (union of the roles; `*` grants all), sorted. */
  permissions: string[];
  /** Ids of the groups the user belongs to. */
  groups: string[];
}

/** Effective permissions of one user. */
export interface UserPermissions {
  user_id: string;
  status: UserStatus;
  roles: string[];
  permissions: string[];
}

export interface AclRpc {
  /** Profiles of the known ids, in the order asked, each once; unknown ids are absent. */
  [AclSubjects.usersGetMany]: { req: { ids: string[] }; res: UserProfile[] };
  /** Users whose `manager_id` is the given one, by name then id. */
  [AclSubjects.usersReports]: { req: { manager_id: string }; res: UserProfile[] };
  /** The given ids that exist (and are ACTIVE with `active_only`). */
  [AclSubjects.usersExists]: { req: { ids: string[]; active_only?: boolean }; res: { existing: string[] } };
  /** `null` for an unknown user. */
  [AclSubjects.usersPermissions]: { req: { user_id: string }; res: UserPermissions | null };
  /** ACTIVE users holding a permission through a role (`*` included), by id. */
  [AclSubjects.usersHolding]: { req: { permission: string }; res: { user_ids: string[] } };
  /** `null` for an unknown group. */
  [AclSubjects.groupsMembers]: {
    req: { group_id: string };
    res: { group_id: string; user_ids: string[] } | null;
  };
  /**
   * Token versions (docs/api/acl.md, revocation): those raised at or after `since` (ISO time), or
   * every nonzero one without it. `at` is acl's clock when it read them: the next `since`.
   */
  [AclSubjects.usersTokenVersions]: { req: { since?: string }; res: TokenVersionsReply };
  /**
   * Signs an app's audit checkpoint (CONTRACT §8.2) with acl's current signing key: a compact
   * JWS (RS256, `kid` in the header) whose payload is the checkpoint's JSON. The key is then
   * published at `/acl/.well-known/audit-keys.json` for good.
   */
  [AclSubjects.auditSignCheckpoint]: { req: AuditCheckpointPayload; res: { kid: string; jws: string } };
}

/** An app's audit chain head at one moment, as signed. */
export interface AuditCheckpointPayload {
  app: string;
  seq: number;
  hash: string;
  at: string;
}

/** One user's token version: access tokens with a lower `ver` are refused. */
export interface TokenVersion {
  user_id: string;
  ver: number;
}

export interface TokenVersionsReply {
  versions: TokenVersion[];
  at: string;
}

/** Payload of `acl.user.tokens-revoked`: every access token of `user_id` below `ver` is refused. */
export type UserTokensRevokedEvent = TokenVersion;

/** Payload of `acl.correspondent.invited`. */
export interface CorrespondentInvitedEvent {
  user_id: string;
  email: string;
  name: string;
  /** The inviter's user id. */
  invited_by: string;
  expires_at: string;
}
