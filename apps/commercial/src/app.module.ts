import { Module, type DynamicModule } from '@nestjs/common';
import { PlatformModule, type DatabaseParts } from '@media/platform';
import type { CommercialConfig } from './config';

@Module({})
export class CommercialModule {
  static forRoot(config: CommercialConfig, database: DatabaseParts): DynamicModule {
    return {
      module: CommercialModule,
      imports: [PlatformModule.forApp({ name: 'commercial', config, database })],
    };
  }
}
