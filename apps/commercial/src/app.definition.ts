import { defineApp } from '@media/platform';
import { AnalyticsModule } from './analytics/analytics.module';
import { ClientsModule } from './clients/clients.module';
import { DealsModule } from './deals/deals.module';

/** How commercial boots, alone or inside the embedded default: its features declare their own tables. */
export const commercialApp = defineApp({
  name: 'commercial',
  features: [ClientsModule, DealsModule, AnalyticsModule],
});
