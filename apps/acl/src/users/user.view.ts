import type { UserProfile, UserStatus } from '@media/contracts';
import type { User } from './user.entity';

/** A user with what the token and the profile need besides the row. */
export interface LoadedUser {
  user: User;
  roles: string[];
  permissions: string[];
  groups: string[];
}

/** What a profile (docs/api/contract.md §5 `UserProfile`) shows of a user. */
export interface ProfiledUser extends Omit<LoadedUser, 'user'> {
  user: Pick<User, 'id' | 'email' | 'firstName' | 'lastName' | 'employeeNumber' | 'managerId' | 'status'>;
}

/** The user as acl's HTTP API shows it (docs/api/contract.md §4a `users/me` shape). */
export interface UserView {
  id: string;
  email: string;
  name: string;
  first_name: string | null;
  last_name: string | null;
  phone_number: string | null;
  employee_number: string | null;
  status: UserStatus;
  roles: string[];
  groups: string[];
  manager_id: string | null;
  date_joined: string;
}

/**
 * `"first last"` (docs/api/contract.md §4, the correspondent list), leaving out a missing part; a user with no name yet
 * (an invited correspondent) is shown by email, as chat clients show a handle.
 */
export function displayName(user: Pick<User, 'firstName' | 'lastName' | 'email'>): string {
  const name = [user.firstName, user.lastName]
    .map((part) => part?.trim())
    .filter(Boolean)
    .join(' ');
  return name || user.email;
}

/** The user columns the view shows. */
export type ShownUser = Pick<
  User,
  | 'id'
  | 'email'
  | 'firstName'
  | 'lastName'
  | 'phoneNumber'
  | 'employeeNumber'
  | 'status'
  | 'managerId'
  | 'dateJoined'
>;

export function toUserView({
  user,
  roles,
  groups,
}: {
  user: ShownUser;
  roles: string[];
  groups: string[];
}): UserView {
  return {
    id: user.id,
    email: user.email,
    name: displayName(user),
    first_name: user.firstName,
    last_name: user.lastName,
    phone_number: user.phoneNumber,
    employee_number: user.employeeNumber,
    status: user.status,
    roles,
    groups,
    manager_id: user.managerId,
    date_joined: new Date(user.dateJoined).toISOString(),
  };
}

/** The profile other apps receive over NATS: no credentials, ever. */
export function toUserProfile({ user, roles, permissions, groups }: ProfiledUser): UserProfile {
  return {
    id: user.id,
    name: displayName(user),
    email: user.email,
    first_name: user.firstName,
    last_name: user.lastName,
    employee_number: user.employeeNumber,
    manager_id: user.managerId,
    status: user.status,
    roles,
    permissions,
    groups,
  };
}
