import { Client } from 'pg';
import { testEnv } from './env';

/** The server tests create their databases on (this machine's PostgreSQL by default). */
export function adminDatabaseUrl(): string {
  return testEnv.databaseUrl;
}

export function databaseUrl(name: string, base = adminDatabaseUrl()): string {
  const url = new URL(base);
  url.pathname = `/${name}`;
  return url.toString();
}

async function withAdmin<T>(work: (client: Client) => Promise<T>, server = adminDatabaseUrl()): Promise<T> {
  const client = new Client({ connectionString: server });
  await client.connect();
  try {
    return await work(client);
  } finally {
    await client.end();
  }
}

const quote = (name: string) => `"${name.replace(/"/g, '""')}"`;

/** Creates fresh, empty databases for one test run (on `server`, this machine's by default). */
export async function createDatabases(names: string[], server = adminDatabaseUrl()): Promise<void> {
  await withAdmin(async (client) => {
    for (const name of names) {
      await client.query(`DROP DATABASE IF EXISTS ${quote(name)} WITH (FORCE)`);
      await client.query(`CREATE DATABASE ${quote(name)}`);
    }
  }, server);
}

/** Drops a run's databases, even with connections still open. */
export async function dropDatabases(names: string[], server = adminDatabaseUrl()): Promise<void> {
  await withAdmin(async (client) => {
    for (const name of names) await client.query(`DROP DATABASE IF EXISTS ${quote(name)} WITH (FORCE)`);
  }, server);
}

/** Drops databases left behind by runs that died before their teardown (older than a day). */
export async function dropStaleDatabases(prefix: string): Promise<void> {
  await withAdmin(async (client) => {
    const { rows } = await client.query<{ datname: string }>(
      `SELECT datname FROM pg_database WHERE datname LIKE $1`,
      [`${prefix}%`],
    );
    const dayAgo = Date.now() - 24 * 3600 * 1000;
    for (const { datname } of rows) {
      const stamp = Number(/_(\d{13})_/.exec(datname)?.[1]);
      if (stamp && stamp < dayAgo)
        await client.query(`DROP DATABASE IF EXISTS ${quote(datname)} WITH (FORCE)`);
    }
  });
}

/** Runs one query against a database of the run (to assert what was stored). */
export async function queryDatabase<R extends Record<string, unknown>>(
  url: string,
  sql: string,
  params: unknown[] = [],
): Promise<R[]> {
  const client = new Client({ connectionString: url });
  await client.connect();
  try {
    return (await client.query<R>(sql, params)).rows;
  } finally {
    await client.end();
  }
}
