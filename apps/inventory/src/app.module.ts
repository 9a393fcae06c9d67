import { Module, type DynamicModule } from '@nestjs/common';
import { PlatformModule, type DatabaseParts } from '@media/platform';
import type { InventoryConfig } from './config';

@Module({})
export class InventoryModule {
  static forRoot(config: InventoryConfig, database: DatabaseParts): DynamicModule {
    return {
      module: InventoryModule,
      imports: [PlatformModule.forApp({ name: 'inventory', config, database })],
    };
  }
}
