import { describeFences } from '@media/testing';

describeFences('payment', __dirname, {
  tables: ['commission_plans', 'commission_targets', 'collections'],
  // A plan's tiers are rows of their own without an entity, written only with their plan.
  alsoWrites: { plans: ['commission_tiers'] },
});
