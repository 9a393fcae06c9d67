import type { AppDefinition } from '@media/platform';
import { PaymentModule } from './app.module';
import { PaymentConfig } from './config';
import { migrations } from './database/migrations';

const database = { entities: [], migrations };

/** How payment boots, alone or inside the embedded default. */
export const paymentApp: AppDefinition<PaymentConfig> = {
  name: 'payment',
  configClass: PaymentConfig,
  database,
  rootModule: (config) => PaymentModule.forRoot(config, database),
};
