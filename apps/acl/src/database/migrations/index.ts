import { CreateIdentity1764000000000 } from './1764000000000-create-identity';
import { SeedRoles1764000000001 } from './1764000000001-seed-roles';
import { CreateCredentials1764000000002 } from './1764000000002-create-credentials';
import { CreateUserJoinDays1764000000003 } from './1764000000003-create-user-join-days';
import { LoginInFlight1764000000004 } from './1764000000004-login-in-flight';
import { RefreshSessionStart1764000000005 } from './1764000000005-refresh-session-start';

/** acl's migrations, in order. */
export const migrations = [
  CreateIdentity1764000000000,
  SeedRoles1764000000001,
  CreateCredentials1764000000002,
  CreateUserJoinDays1764000000003,
  LoginInFlight1764000000004,
  RefreshSessionStart1764000000005,
];
