/**
 * The platform took over the `deleted_documents` tombstones content's own migration created: a database
 * made by the old migrations keeps its table and rows when it migrates forward, and a database
 * without the table gets it (same shape).
 */
import { migrateDatabase } from '@media/platform';
import { describeTombstonesMigratingForward } from '@media/testing';
import { contentApp } from '../src/app.definition';

describeTombstonesMigratingForward({
  name: 'content',
  migrations: contentApp.database.migrations,
  migrate: (url, migrations) => migrateDatabase('content', { url }, { entities: [], migrations }),
});
