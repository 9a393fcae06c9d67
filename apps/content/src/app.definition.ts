import type { AppDefinition } from '@media/platform';
import { ContentModule } from './app.module';
import { ContentConfig } from './config';
import { migrations } from './database/migrations';

const database = { entities: [], migrations };

/** How content boots, alone or inside the embedded default. */
export const contentApp: AppDefinition<ContentConfig> = {
  name: 'content',
  configClass: ContentConfig,
  database,
  rootModule: (config) => ContentModule.forRoot(config, database),
};
