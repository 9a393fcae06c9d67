import { randomUUID } from 'node:crypto';
import { createDatabases, databaseUrl, dropDatabases, queryDatabase } from './databases';

/** A migration class: TypeORM wants its name to end with its timestamp. */
interface Migration {
  readonly name: string;
}

/** A table as a migration leaves it: its columns (empty when it does not exist) and its rows. */
export interface TableState {
  columns: { column_name: string; data_type: string; is_nullable: string; column_default: string | null }[];
  rows: Record<string, unknown>[];
}

export interface MigrateForwardOptions<M extends Migration> {
  /** Every migration of the app, in order. */
  migrations: M[];
  /** The first migration of the release being deployed: the ones before it are "the old ones". */
  firstNew: string;
  /** Applies `migrations` to the database at `url`, as the app does at start. */
  migrate: (url: string, migrations: M[]) => Promise<void>;
  /** The table the forward step must keep, and the column its rows are compared in order of. */
  table: string;
  orderBy: string;
  /** Runs on the database between the two steps: rows inserted, a table dropped... */
  between?: (url: string) => Promise<unknown>;
}

export interface MigratedForward {
  /** The old migrations' names. */
  old: string[];
  /** The table as the old migrations left it (before `between`), then after migrating forward. */
  before: TableState;
  after: TableState;
  /** The migrations the database records as applied, in order. */
  applied: string[];
}

const timestamp = (migration: Migration) => Number(/(\d+)$/.exec(migration.name)?.[1]);

/**
 * A deployment meeting a new release: the empty database at `url` is migrated by the app's old
 * migrations, the table read, `between` run, then every migration applied and the table read again.
 */
export async function migrateForward<M extends Migration>(
  url: string,
  options: MigrateForwardOptions<M>,
): Promise<MigratedForward> {
  const first = options.migrations.find((m) => m.name === options.firstNew);
  if (!first) throw new Error(`${options.firstNew} is not among the app's migrations`);
  const old = options.migrations.filter((m) => timestamp(m) < timestamp(first));
  await options.migrate(url, old);
  const before = await tableState(url, options.table, options.orderBy);
  await options.between?.(url);
  await options.migrate(url, options.migrations);
  const after = await tableState(url, options.table, options.orderBy);
  const applied = await queryDatabase<{ name: string }>(url, `SELECT name FROM migrations ORDER BY id`);
  return { old: old.map((m) => m.name), before, after, applied: applied.map((m) => m.name) };
}

async function tableState(url: string, table: string, orderBy: string): Promise<TableState> {
  const columns = await queryDatabase<TableState['columns'][number]>(
    url,
    `SELECT column_name, data_type, is_nullable, column_default FROM information_schema.columns
      WHERE table_schema = 'public' AND table_name = $1 ORDER BY column_name`,
    [table],
  );
  if (!columns.length) return { columns, rows: [] };
  const quote = (name: string) => `"${name.replace(/"/g, '""')}"`;
  const rows = await queryDatabase(url, `SELECT * FROM ${quote(table)} ORDER BY ${quote(orderBy)}`);
  return { columns, rows };
}

/** The platform's first tombstones migration: what comes before it in an app is "the old ones". */
const TOMBSTONES = 'DeletedDocumentsTable1766000000000';

export interface TombstonesApp<M extends Migration> {
  /** The app's name, as its databases and migrations table know it. */
  name: string;
  /** Every migration of the app, in order (its definition's `database.migrations`). */
  migrations: M[];
  /** Applies migrations as the app does at start (the platform's `migrateDatabase`). */
  migrate: (url: string, migrations: M[]) => Promise<void>;
}

/**
 * The platform took over the `deleted_documents` tombstones an app's own migration had created:
 * a database made by the app's old migrations keeps its table and rows when it migrates forward,
 * and a database without the table gets it, in the same shape.
 */
export function describeTombstonesMigratingForward<M extends Migration>(app: TombstonesApp<M>): void {
  const forward = (url: string, between: (url: string) => Promise<unknown>) =>
    migrateForward(url, {
      migrations: app.migrations,
      firstNew: TOMBSTONES,
      migrate: app.migrate,
      table: 'deleted_documents',
      orderBy: 'document_id',
      between,
    });

  describe(`${app.name}'s deleted_documents, migrating forward to the platform's`, () => {
    const name = `int_${Date.now()}_${randomUUID().slice(0, 6)}_${app.name.replace(/-/g, '_')}_tombstones`;
    const url = databaseUrl(name);

    beforeEach(async () => createDatabases([name]));
    afterEach(async () => dropDatabases([name]));

    it('keeps the table and rows the old migrations made, and records the platform migration', async () => {
      const ids = [randomUUID(), randomUUID()].sort();
      const { old, before, after, applied } = await forward(url, (at) =>
        queryDatabase(
          at,
          `INSERT INTO deleted_documents (document_id, deleted_at) VALUES ($1, '2026-01-02T03:04:05.678Z'), ($2, now())`,
          ids,
        ),
      );

      expect(old).not.toContain(TOMBSTONES);
      expect(before.columns.map((c) => c.column_name)).toEqual(['deleted_at', 'document_id']);
      expect(applied).toContain(TOMBSTONES);
      expect(after.columns).toEqual(before.columns);
      expect(after.rows).toEqual([
        { document_id: ids[0], deleted_at: new Date('2026-01-02T03:04:05.678Z') },
        { document_id: ids[1], deleted_at: expect.any(Date) },
      ]);
    });

    it('creates the table, in the same shape, where it is missing', async () => {
      const { before, after } = await forward(url, (at) => queryDatabase(at, `DROP TABLE deleted_documents`));

      expect(after.columns).toEqual(before.columns);
      const id = randomUUID();
      await queryDatabase(url, `INSERT INTO deleted_documents (document_id) VALUES ($1)`, [id]);
      expect(
        await queryDatabase(url, `SELECT 1 FROM deleted_documents WHERE document_id = $1`, [id]),
      ).toHaveLength(1);
    });
  });
}
