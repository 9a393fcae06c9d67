import { queryDatabase } from './databases';

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
