import { Module, type DynamicModule } from '@nestjs/common';
import { PlatformModule, type DatabaseParts } from '@media/platform';
import type { AclConfig } from './config';

@Module({})
export class AclModule {
  static forRoot(config: AclConfig, database: DatabaseParts): DynamicModule {
    return {
      module: AclModule,
      imports: [PlatformModule.forApp({ name: 'acl', config, database })],
    };
  }
}
