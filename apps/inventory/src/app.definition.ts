import type { AppDefinition } from '@media/platform';
import { InventoryModule } from './app.module';
import { Booking, BookingLine, LineAsset } from './bookings/booking.entity';
import { InventoryConfig } from './config';
import { migrations } from './database/migrations';

const database = { entities: [Booking, BookingLine, LineAsset], migrations };

/** How inventory boots, alone or inside the embedded default. */
export const inventoryApp: AppDefinition<InventoryConfig> = {
  name: 'inventory',
  configClass: InventoryConfig,
  database,
  rootModule: (config) => InventoryModule.forRoot(config, database),
};
