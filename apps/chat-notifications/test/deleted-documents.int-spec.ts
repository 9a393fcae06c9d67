/**
 * The platform took over the `deleted_documents` tombstones chat-notifications' own migration (DeletedDocuments1764800000011) created: a database
 * made by the old migrations keeps its table and rows when it migrates forward, and a database
 * without the table gets it (same shape).
 */
import { migrateDatabase } from '@media/platform';
import { describeTombstonesMigratingForward } from '@media/testing';
import { chatNotificationsApp } from '../src/app.definition';

describeTombstonesMigratingForward({
  name: 'chat-notifications',
  migrations: chatNotificationsApp.database.migrations,
  migrate: (url, migrations) => migrateDatabase('chat-notifications', { url }, { entities: [], migrations }),
});
