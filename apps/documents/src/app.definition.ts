import type { AppDefinition } from '@media/platform';
import { DocumentsAppModule } from './app.module';
import { DocumentsConfig } from './config';
import { migrations } from './database/migrations';
import { Document } from './documents/document.entity';

const database = { entities: [Document], migrations };

/** How documents boots, alone or inside the embedded default. */
export const documentsApp: AppDefinition<DocumentsConfig> = {
  name: 'documents',
  configClass: DocumentsConfig,
  database,
  rootModule: (config) => DocumentsAppModule.forRoot(config, database),
};
