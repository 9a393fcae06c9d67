import { defineApp } from '@media/platform';
import { AttainmentModule } from './attainment/attainment.module';
import { CollectionsModule } from './collections/collections.module';
import { PlansModule } from './plans/plans.module';
import { TargetsModule } from './targets/targets.module';

/** How payment boots, alone or inside the embedded default: its features declare their own tables. */
export const paymentApp = defineApp({
  name: 'payment',
  features: [PlansModule, TargetsModule, CollectionsModule, AttainmentModule],
});
