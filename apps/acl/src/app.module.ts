import { Module, type DynamicModule } from '@nestjs/common';
import { PlatformModule, type DatabaseParts } from '@media/platform';
import { AnalyticsModule } from './analytics/analytics.module';
import { AuthModule } from './auth/auth.module';
import { BootstrapModule } from './bootstrap/bootstrap.module';
import type { AclConfig } from './config';
import { CorrespondentsModule } from './correspondents/correspondents.module';
import { GroupsModule } from './groups/groups.module';
import { KeysModule } from './keys/keys.module';
import { RolesModule } from './roles/roles.module';
import { RpcModule } from './rpc/rpc.module';
import { UsersModule } from './users/users.module';

@Module({})
export class AclModule {
  static forRoot(config: AclConfig, database: DatabaseParts): DynamicModule {
    return {
      module: AclModule,
      imports: [
        PlatformModule.forApp({ name: 'acl', config, database }),
        KeysModule,
        AuthModule,
        UsersModule,
        GroupsModule,
        RolesModule,
        CorrespondentsModule,
        AnalyticsModule,
        RpcModule,
        BootstrapModule,
      ],
    };
  }
}
