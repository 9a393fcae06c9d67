import type { DataSource, DataSourceOptions, EntitySchema } from 'typeorm';
import type { PlatformConfig } from '../config/platform-config';
import { CreateOutbox1700000000000 } from '../outbox/outbox.migration';
import { OutboxMessage, ProcessedEvent } from '../outbox/outbox.entity';

/** An entity or migration class. */
export type ClassRef = abstract new (...args: never[]) => unknown;

export interface DatabaseParts {
  entities: (ClassRef | EntitySchema)[];
  migrations: ClassRef[];
}

/** TypeORM options of one app: its own database, its own migrations, never `synchronize`. */
export function databaseOptions(
  app: string,
  config: Pick<PlatformConfig, 'DATABASE_URL'>,
  parts: DatabaseParts,
): DataSourceOptions {
  return {
    type: 'postgres',
    url: config.DATABASE_URL,
    // Every app has the outbox and processed-events tables, applied before its own migrations.
    entities: [OutboxMessage, ProcessedEvent, ...parts.entities] as DataSourceOptions['entities'],
    migrations: [CreateOutbox1700000000000, ...parts.migrations] as DataSourceOptions['migrations'],
    migrationsTableName: 'migrations',
    synchronize: false,
    migrationsRun: false,
    uuidExtension: 'pgcrypto',
    applicationName: app,
    extra: { max: 10, connectionTimeoutMillis: 5_000, idleTimeoutMillis: 30_000 },
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
    const applied = await dataSource.runMigrations({ transaction: 'each' });
    if (applied.length)
      log(`Applied ${applied.length} migration(s): ${applied.map((m) => m.name).join(', ')}`);
  } finally {
    await runner.query('SELECT pg_advisory_unlock($1)', [lockKey(app)]).catch(() => undefined);
    await runner.release();
  }
}
