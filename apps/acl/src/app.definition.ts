import { defineApp } from '@media/platform';
import { AnalyticsModule } from './analytics/analytics.module';
import { AuditModule } from './audit/audit.module';
import { AuthModule } from './auth/auth.module';
import { BootstrapModule } from './bootstrap/bootstrap.module';
import { aclConfig } from './config';
import { CorrespondentsModule } from './correspondents/correspondents.module';
import { GroupsModule } from './groups/groups.module';
import { KeysModule } from './keys/keys.module';
import { RolesModule } from './roles/roles.module';
import { SessionsModule } from './sessions/sessions.module';
import { UsersModule } from './users/users.module';

/** How acl boots, alone or inside the embedded default: its features declare their own tables. */
export const aclApp = defineApp({
  name: 'acl',
  config: aclConfig,
  features: [
    KeysModule,
    SessionsModule,
    AuthModule,
    UsersModule,
    GroupsModule,
    RolesModule,
    CorrespondentsModule,
    AnalyticsModule,
    AuditModule,
    BootstrapModule,
  ],
});
