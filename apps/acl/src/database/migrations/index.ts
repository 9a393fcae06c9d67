import { CreateIdentity1764000000000 } from './1764000000000-create-identity';
import { SeedRoles1764000000001 } from './1764000000001-seed-roles';
import { CreateCredentials1764000000002 } from './1764000000002-create-credentials';

/** acl's migrations, in order. */
export const migrations = [
  CreateIdentity1764000000000,
  SeedRoles1764000000001,
  CreateCredentials1764000000002,
];
