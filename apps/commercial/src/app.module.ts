import { Module, type DynamicModule } from '@nestjs/common';
import { PlatformModule, type DatabaseParts } from '@media/platform';
import { AnalyticsModule } from './analytics/analytics.module';
import { ClientsModule } from './clients/clients.module';
import type { CommercialConfig } from './config';
import { DealsModule } from './deals/deals.module';

@Module({})
export class CommercialModule {
  static forRoot(config: CommercialConfig, database: DatabaseParts): DynamicModule {
    return {
      module: CommercialModule,
      imports: [
        PlatformModule.forApp({ name: 'commercial', config, database }),
        ClientsModule,
        DealsModule,
        AnalyticsModule,
      ],
    };
  }
}
