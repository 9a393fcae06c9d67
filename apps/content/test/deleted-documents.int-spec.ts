/**
 * The platform took over the `deleted_documents` tombstones content's own migration created: a
 * database made by the old migrations keeps its table and rows when it migrates forward, and a
 * database without the table gets it (same shape).
 */
import { randomUUID } from 'node:crypto';
import { createDatabases, databaseUrl, dropDatabases, queryDatabase } from '@media/testing';
import { databaseOptions, runMigrations, type DatabaseParts } from '@media/platform';
import { DataSource } from 'typeorm';
import { contentApp } from '../src/app.definition';

/** The first migration of the platform's tombstones: everything before it is "the old migrations". */
const TOMBSTONES = 'DeletedDocumentsTable1766000000000';

const all = contentApp.database;
const old: DatabaseParts = {
  entities: [],
  migrations: all.migrations.filter((m) => Number(/(\d+)$/.exec(m.name)?.[1]) < 1766000000000),
};

async function migrate(url: string, parts: DatabaseParts): Promise<void> {
  const dataSource = await new DataSource(databaseOptions('content-migrations', { url }, parts)).initialize();
  try {
    await runMigrations('content', dataSource);
  } finally {
    await dataSource.destroy();
  }
}

const columns = (url: string) =>
  queryDatabase<{ column_name: string; data_type: string; is_nullable: string }>(
    url,
    `SELECT column_name, data_type, is_nullable FROM information_schema.columns
      WHERE table_name = 'deleted_documents' ORDER BY column_name`,
  );

describe('deleted_documents, migrating forward', () => {
  const name = `int_${Date.now()}_${randomUUID().slice(0, 6)}_content_tombstones`;
  const url = databaseUrl(name);

  beforeEach(async () => createDatabases([name]));
  afterEach(async () => dropDatabases([name]));

  it('keeps the table and rows the old migrations made, and records the platform migration', async () => {
    expect(old.migrations.map((m) => m.name)).not.toContain(TOMBSTONES);
    await migrate(url, old);
    const before = await columns(url);
    const ids = [randomUUID(), randomUUID()].sort();
    await queryDatabase(
      url,
      `INSERT INTO deleted_documents (document_id, deleted_at) VALUES ($1, '2026-01-02T03:04:05.678Z'), ($2, now())`,
      ids,
    );

    await migrate(url, all);

    const applied = await queryDatabase<{ name: string }>(
      url,
      `SELECT name FROM migrations WHERE name = $1`,
      [TOMBSTONES],
    );
    expect(applied).toHaveLength(1);
    expect(await columns(url)).toEqual(before);
    const rows = await queryDatabase<{ document_id: string; deleted_at: Date }>(
      url,
      `SELECT document_id, deleted_at FROM deleted_documents ORDER BY document_id`,
    );
    expect(rows.map((r) => r.document_id)).toEqual(ids);
    expect(rows.find((r) => r.document_id === ids[0])!.deleted_at.toISOString()).toBe(
      '2026-01-02T03:04:05.678Z',
    );
  });

  it('creates the table, in the same shape, where it is missing', async () => {
    await migrate(url, old);
    const shape = await columns(url);
    await queryDatabase(url, `DROP TABLE deleted_documents`);

    await migrate(url, all);

    expect(await columns(url)).toEqual(shape);
    const id = randomUUID();
    await queryDatabase(url, `INSERT INTO deleted_documents (document_id) VALUES ($1)`, [id]);
    expect(
      await queryDatabase(url, `SELECT 1 FROM deleted_documents WHERE document_id = $1`, [id]),
    ).toHaveLength(1);
  });
});
