import { Module, type DynamicModule } from '@nestjs/common';
import { PlatformModule, type DatabaseParts } from '@media/platform';
import type { DocumentsConfig } from './config';
import { DocumentsModule } from './documents/documents.module';
import { StorageModule } from './storage/storage.module';

@Module({})
export class DocumentsAppModule {
  static forRoot(config: DocumentsConfig, database: DatabaseParts): DynamicModule {
    return {
      module: DocumentsAppModule,
      imports: [
        PlatformModule.forApp({ name: 'documents', config, database }),
        StorageModule,
        DocumentsModule,
      ],
    };
  }
}
