import { Module, type DynamicModule } from '@nestjs/common';
import { PlatformModule, type DatabaseParts } from '@media/platform';
import { BookingsModule } from './bookings/bookings.module';
import type { InventoryConfig } from './config';
import { RevenueModule } from './revenue/revenue.module';

@Module({})
export class InventoryModule {
  static forRoot(config: InventoryConfig, database: DatabaseParts): DynamicModule {
    return {
      module: InventoryModule,
      imports: [
        PlatformModule.forApp({ name: 'inventory', config, database }),
        BookingsModule,
        RevenueModule,
      ],
    };
  }
}
