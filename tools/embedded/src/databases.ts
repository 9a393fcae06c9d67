import type { ServiceName } from '@media/contracts';
import { Client } from 'pg';

export const DEFAULT_DATABASE_PREFIX = 'media';

/** Databases that name a server rather than a project: never used as the prefix. */
const MAINTENANCE_DATABASES = new Set(['', 'postgres', 'template0', 'template1']);

/** `media` + `chat-notifications` -> `media_chat_notifications`. */
export function databaseName(app: ServiceName, prefix = DEFAULT_DATABASE_PREFIX): string {
  return `${prefix}_${app.replace(/-/g, '_')}`;
}

function parse(url: string): URL {
  try {
    return new URL(url);
  } catch {
    throw new Error('DATABASE_URL is not a valid URL');
  }
}

/** The database named in a connection URL ('' when none). */
export function databaseOf(url: string): string {
  return decodeURIComponent(parse(url).pathname.replace(/^\//, ''));
}

/**
 * The prefix of the per-app databases when `DATABASE_URL` is given: its database name
 * (`postgres://.../shop` -> `shop_acl`, ...), or `media` when it names none or a maintenance
 * database. So two checkouts can share one server by pointing at different names.
 */
export function databasePrefix(url: string): string {
  const name = databaseOf(url);
  return MAINTENANCE_DATABASES.has(name) ? DEFAULT_DATABASE_PREFIX : name;
}

/** The same server, user, password and query options, another database. */
export function withDatabase(url: string, database: string): string {
  const parsed = parse(url);
  parsed.pathname = `/${encodeURIComponent(database)}`;
  return parsed.toString();
}

/** One database URL per app on the server of `serverUrl`. */
export function perAppDatabaseUrls(
  serverUrl: string,
  apps: readonly ServiceName[],
  prefix: string,
): Record<ServiceName, string> {
  return Object.fromEntries(
    apps.map((app) => [app, withDatabase(serverUrl, databaseName(app, prefix))]),
  ) as Record<ServiceName, string>;
}

/** Hides the password of a connection URL for logs. */
export function redactUrl(url: string): string {
  const parsed = parse(url);
  if (parsed.password) parsed.password = '***';
  return parsed.toString();
}

const DUPLICATE_DATABASE = '42P04';
const UNKNOWN_DATABASE = '3D000';

function pgCode(error: unknown): string | undefined {
  return typeof error === 'object' && error !== null && 'code' in error
    ? String((error as { code: unknown }).code)
    : undefined;
}

/**
 * Connects for administration: to the URL's own database, and when that does not exist yet
 * (a `DATABASE_URL` naming the prefix only), to `postgres`.
 */
async function adminClient(serverUrl: string): Promise<Client> {
  const candidates = [serverUrl, withDatabase(serverUrl, 'postgres')];
  let lastError: unknown;
  for (const url of candidates) {
    const client = new Client({ connectionString: url, connectionTimeoutMillis: 5_000 });
    try {
      await client.connect();
      return client;
    } catch (error) {
      lastError = error;
      await client.end().catch(() => undefined);
      if (pgCode(error) !== UNKNOWN_DATABASE) break;
    }
  }
  throw new Error(`cannot connect to ${redactUrl(serverUrl)}: ${(lastError as Error).message}`);
}

/** Creates each database that does not exist yet; returns the names it created. */
export async function ensureDatabases(serverUrl: string, names: readonly string[]): Promise<string[]> {
  const client = await adminClient(serverUrl);
  const created: string[] = [];
  try {
    for (const name of names) {
      const found = await client.query('SELECT 1 FROM pg_database WHERE datname = $1', [name]);
      if (found.rowCount) continue;
      try {
        await client.query(`CREATE DATABASE ${client.escapeIdentifier(name)}`);
        created.push(name);
      } catch (error) {
        // Another runner (or a replica's init job) created it in between: that is the goal.
        if (pgCode(error) === DUPLICATE_DATABASE) continue;
        throw new Error(
          `cannot create database ${name}: ${(error as Error).message} (create it, or grant CREATEDB to the user of DATABASE_URL)`,
        );
      }
    }
  } finally {
    await client.end().catch(() => undefined);
  }
  return created;
}
