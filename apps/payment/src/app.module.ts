import { Module, type DynamicModule } from '@nestjs/common';
import { PlatformModule, type DatabaseParts } from '@media/platform';
import type { PaymentConfig } from './config';

@Module({})
export class PaymentModule {
  static forRoot(config: PaymentConfig, database: DatabaseParts): DynamicModule {
    return {
      module: PaymentModule,
      imports: [PlatformModule.forApp({ name: 'payment', config, database })],
    };
  }
}
