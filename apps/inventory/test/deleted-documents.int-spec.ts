/**
 * The platform took over the `deleted_documents` tombstones inventory's first migration (CreateBookings1764100000000) created: a database
 * made by the old migrations keeps its table and rows when it migrates forward, and a database
 * without the table gets it (same shape).
 */
import { migrateDatabase } from '@media/platform';
import { describeTombstonesMigratingForward } from '@media/testing';
import { inventoryApp } from '../src/app.definition';

describeTombstonesMigratingForward({
  name: 'inventory',
  migrations: inventoryApp.database.migrations,
  migrate: (url, migrations) => migrateDatabase('inventory', { url }, { entities: [], migrations }),
});
