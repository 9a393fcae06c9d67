import type { AppDefinition } from '@media/platform';
import { PaymentModule } from './app.module';
import { Collection } from './collections/collection.entity';
import { PaymentConfig } from './config';
import { migrations } from './database/migrations';
import { CommissionPlan } from './plans/plan.entity';
import { CommissionTarget } from './targets/target.entity';

const database = { entities: [CommissionPlan, CommissionTarget, Collection], migrations };

/** How payment boots, alone or inside the embedded default. */
export const paymentApp: AppDefinition<PaymentConfig> = {
  name: 'payment',
  configClass: PaymentConfig,
  database,
  rootModule: (config) => PaymentModule.forRoot(config, database),
};
