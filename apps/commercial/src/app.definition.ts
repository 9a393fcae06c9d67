import type { AppDefinition } from '@media/platform';
import { CommercialModule } from './app.module';
import { Client } from './clients/client.entity';
import { CommercialConfig } from './config';
import { migrations } from './database/migrations';
import { Deal } from './deals/deal.entity';

const database = { entities: [Client, Deal], migrations };

/** How commercial boots, alone or inside the embedded default. */
export const commercialApp: AppDefinition<CommercialConfig> = {
  name: 'commercial',
  configClass: CommercialConfig,
  database,
  rootModule: (config) => CommercialModule.forRoot(config, database),
};
