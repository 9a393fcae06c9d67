import { DataSource, type DataSourceOptions, type EntitySchema } from 'typeorm';
import type { DatabaseConfig } from '@media/core';
import {
  CreateOutbox1700000000000,
  CreateDeadLetters1700000000900,
  DeadLetter,
  OutboxMessage,
  ProcessedEvent,
} from '@media/messaging';
import { CreateIdempotencyKeys1700000000950 } from '@media/http';
import { CreateAuditTrail1700000000980 } from '../audit/audit.migration';
import { AuditReadIndexes1764900000400 } from '../audit/audit-read-indexes.migration';
import { AuditSealedIndexes1764900000410 } from '../audit/audit-sealed-indexes.migration';
import { AuditRecordLean1765100000100 } from '../audit/audit-record-lean.migration';
import { AuditRetentionPrefix1765100000200 } from '../audit/audit-retention-prefix.migration';
import { compileAuditTriggers, useGenericAuditTriggers } from '../audit/compiled-trigger';
import { AuditContextSubscriber } from '../audit/context';
import { CreateAuditRecording1764900000100 } from '../audit/recording';
import { SealedAuditEntry } from '../audit/sealed-entry.entity';

/** An entity or migration class. */
export type ClassRef = abstract new (...args: never[]) => unknown;

export interface DatabaseParts {
  entities: (ClassRef | EntitySchema)[];
  migrations: ClassRef[];
}

/**
 * TypeORM options of one app: its own database, its own migrations, never `synchronize`. Every
 * session gets `statement_timeout` and `idle_in_transaction_session_timeout`, so a runaway query
 * or a transaction left open cannot hold a connection and its locks for ever; the migrations'
 * data source (named `<app>-migrations` by startApp) runs without the statement timeout, since an
 * index build on a large table may legitimately take long. JIT compilation is off for every
 * session: PostgreSQL compiles any statement whose estimated cost is over `jit_above_cost`, at
 * every execution, and an estimate can be far off (an endpoints table too small for autovacuum to
 * ever analyze it is priced at 150 rows): the webhook worker's claim, once 200,000 delivered
 * messages lay in its index, was compiled at every round, 45 ms a round against 7 to 11 without JIT
 * (bench/queue-scans.mjs). The apps' statements are held to tens of milliseconds, less than a
 * compilation costs.
 */
export function databaseOptions(
  app: string,
  database: DatabaseConfig,
  parts: DatabaseParts,
): DataSourceOptions {
  const migrating = app.endsWith('-migrations');
  const statementTimeout = migrating ? 0 : (database.statementTimeout ?? 30_000);
  return {
    type: 'postgres',
    url: database.url,
    // Every app has the outbox, processed-events, dead-letter, idempotency-key and audit tables, applied
    // before its own migrations (the audit list's indexes after them: their timestamp is later).
    entities: [
      OutboxMessage,
      ProcessedEvent,
      DeadLetter,
      SealedAuditEntry,
      ...parts.entities,
    ] as DataSourceOptions['entities'],
    migrations: [
      CreateOutbox1700000000000,
      CreateDeadLetters1700000000900,
      CreateIdempotencyKeys1700000000950,
      CreateAuditTrail1700000000980,
      AuditReadIndexes1764900000400,
      AuditSealedIndexes1764900000410,
      CreateAuditRecording1764900000100,
      AuditRecordLean1765100000100,
      AuditRetentionPrefix1765100000200,
      ...parts.migrations,
    ] as DataSourceOptions['migrations'],
    // Sets the audit context (actor, request, cause) at the start of every transaction.
    subscribers: [AuditContextSubscriber],
    migrationsTableName: 'migrations',
    synchronize: false,
    migrationsRun: false,
    uuidExtension: 'pgcrypto',
    applicationName: app,
    extra: {
      max: database.poolMax ?? 10,
      connectionTimeoutMillis: 5_000,
      idleTimeoutMillis: database.poolIdleTimeout ?? 30_000,
      statement_timeout: statementTimeout,
      idle_in_transaction_session_timeout: database.idleInTransactionTimeout ?? 60_000,
      options: '-c jit=off',
    },
  };
}

/** A stable 32-bit key per app for pg_advisory_lock. */
function lockKey(app: string): number {
  let hash = 0;
  for (const char of `migrations:${app}`) hash = (Math.imul(hash, 31) + char.charCodeAt(0)) | 0;
  return hash;
}

/**
 * Runs pending migrations under an advisory lock, so replicas starting together do not race.
 * The audited tables are recorded by `audit_record()` while migrations change them, and by their
 * own functions, written from the columns they then have, once they are done (compiled-trigger.ts).
 */
export async function runMigrations(
  app: string,
  dataSource: DataSource,
  log: (message: string) => void = () => undefined,
): Promise<void> {
  const runner = dataSource.createQueryRunner();
  await runner.connect();
  try {
    await runner.query('SELECT pg_advisory_lock($1)', [lockKey(app)]);
    if (await dataSource.showMigrations()) await useGenericAuditTriggers(runner);
    const applied = await dataSource.runMigrations({ transaction: 'each' });
    await compileAuditTriggers(runner);
    if (applied.length)
      log(`Applied ${applied.length} migration(s): ${applied.map((m) => m.name).join(', ')}`);
  } finally {
    await runner.query('SELECT pg_advisory_unlock($1)', [lockKey(app)]).catch(() => undefined);
    await runner.release();
  }
}

/**
 * Applies an app's pending migrations to `database` with a short-lived connection of its own, as
 * the app does at start (before any module touches a table).
 */
export async function migrateDatabase(
  app: string,
  database: DatabaseConfig,
  parts: DatabaseParts,
  log?: (message: string) => void,
): Promise<void> {
  const dataSource = await new DataSource(databaseOptions(`${app}-migrations`, database, parts)).initialize();
  try {
    await runMigrations(app, dataSource, log);
  } finally {
    await dataSource.destroy();
  }
}
