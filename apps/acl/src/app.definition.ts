import type { AppDefinition } from '@media/platform';
import { AclModule } from './app.module';
import { AclConfig } from './config';
import { migrations } from './database/migrations';

const database = { entities: [], migrations };

/** How acl boots, alone or inside the embedded default. */
export const aclApp: AppDefinition<AclConfig> = {
  name: 'acl',
  configClass: AclConfig,
  database,
  rootModule: (config) => AclModule.forRoot(config, database),
};
