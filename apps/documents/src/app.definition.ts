import type { AppDefinition } from '@media/platform';
import { DocumentsModule } from './app.module';
import { DocumentsConfig } from './config';
import { migrations } from './database/migrations';

const database = { entities: [], migrations };

/** How documents boots, alone or inside the embedded default. */
export const documentsApp: AppDefinition<DocumentsConfig> = {
  name: 'documents',
  configClass: DocumentsConfig,
  database,
  rootModule: (config) => DocumentsModule.forRoot(config, database),
};
