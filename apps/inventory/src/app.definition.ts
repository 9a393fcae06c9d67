import { defineApp, DeletedDocumentsModule } from '@media/platform';
import { BookingsModule } from './bookings/bookings.module';
import { RevenueModule } from './revenue/revenue.module';

/** How inventory boots, alone or inside the embedded default: its features declare their own tables. */
export const inventoryApp = defineApp({
  name: 'inventory',
  features: [
    // The durable consumer's name, under which its position and processed events are kept.
    DeletedDocumentsModule.forApp({ consumer: 'DocumentEvents.documentDeleted' }),
    BookingsModule,
    RevenueModule,
  ],
});
