import { Module, type DynamicModule } from '@nestjs/common';
import { PlatformModule, type DatabaseParts } from '@media/platform';
import type { DocumentsConfig } from './config';

@Module({})
export class DocumentsModule {
  static forRoot(config: DocumentsConfig, database: DatabaseParts): DynamicModule {
    return {
      module: DocumentsModule,
      imports: [PlatformModule.forApp({ name: 'documents', config, database })],
    };
  }
}
