export const AclSubjects = {
  usersGetMany: 'acl.users.get-many',
  usersReports: 'acl.users.reports',
  usersExists: 'acl.users.exists',
  usersPermissions: 'acl.users.permissions',
  groupsMembers: 'acl.groups.members',
} as const;

export const AclEvents = {
  correspondentInvited: 'acl.correspondent.invited',
} as const;

export type UserStatus = 'INVITED' | 'ACTIVE' | 'DISABLED';

/** A user as other apps see it; never carries credentials. */
export interface UserProfile {
  id: string;
  name: string;
  email: string;
  first_name: string;
  last_name: string;
  employee_number: string | null;
  manager_id: string | null;
  status: UserStatus;
  roles: string[];
  permissions: string[];
}

export interface AclRpc {
  [AclSubjects.usersGetMany]: { req: { ids: string[] }; res: UserProfile[] };
  [AclSubjects.usersReports]: { req: { manager_id: string }; res: UserProfile[] };
  [AclSubjects.usersExists]: { req: { ids: string[]; active_only?: boolean }; res: { existing: string[] } };
  [AclSubjects.usersPermissions]: { req: { user_id: string }; res: { user_id: string; permissions: string[] } | null };
  [AclSubjects.groupsMembers]: { req: { group_id: string }; res: { group_id: string; user_ids: string[] } | null };
}

/** Payload of `acl.correspondent.invited`. */
export interface CorrespondentInvitedEvent {
  user_id: string;
  email: string;
  name: string;
  invited_by: string;
  expires_at: string;
}
