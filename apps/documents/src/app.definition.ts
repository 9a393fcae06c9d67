import { defineApp } from '@media/platform';
import { documentsConfig } from './config';
import { DocumentsModule } from './documents/documents.module';
import { StorageModule } from './storage/storage.module';
import { UploadsModule } from './uploads/uploads.module';

/** How documents boots, alone or inside the embedded default: its features declare their own tables. */
export const documentsApp = defineApp({
  name: 'documents',
  config: documentsConfig,
  features: [StorageModule, DocumentsModule, UploadsModule],
});
