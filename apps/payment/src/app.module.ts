import { Module, type DynamicModule } from '@nestjs/common';
import { PlatformModule, type DatabaseParts } from '@media/platform';
import { AclDirectoryModule } from './acl/acl-directory.module';
import { AttainmentModule } from './attainment/attainment.module';
import { CollectionsModule } from './collections/collections.module';
import type { PaymentConfig } from './config';
import { PlansModule } from './plans/plans.module';
import { TargetsModule } from './targets/targets.module';

@Module({})
export class PaymentModule {
  static forRoot(config: PaymentConfig, database: DatabaseParts): DynamicModule {
    return {
      module: PaymentModule,
      imports: [
        PlatformModule.forApp({ name: 'payment', config, database }),
        AclDirectoryModule,
        PlansModule,
        TargetsModule,
        CollectionsModule,
        AttainmentModule,
      ],
    };
  }
}
