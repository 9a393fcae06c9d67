import type { AppDefinition } from '@media/platform';
import { AclModule } from './app.module';
import { LoginFailure, RefreshToken } from './auth/refresh-token.entity';
import { AclConfig } from './config';
import { Invitation } from './correspondents/invitation.entity';
import { migrations } from './database/migrations';
import { Group, GroupMember } from './groups/group.entity';
import { SigningKey } from './keys/signing-key.entity';
import { Role, UserRole } from './roles/role.entity';
import { User } from './users/user.entity';

const database = {
  entities: [User, Role, UserRole, Group, GroupMember, SigningKey, RefreshToken, LoginFailure, Invitation],
  migrations,
};

/** How acl boots, alone or inside the embedded default. */
export const aclApp: AppDefinition<AclConfig> = {
  name: 'acl',
  configClass: AclConfig,
  database,
  rootModule: (config) => AclModule.forRoot(config, database),
};
