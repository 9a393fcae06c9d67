/**
 * The platform took over the `deleted_documents` tombstones content's own migration created: a
 * database made by the old migrations keeps its table and rows when it migrates forward, and a
 * database without the table gets it (same shape).
 */
import { randomUUID } from 'node:crypto';
import { migrateDatabase } from '@media/platform';
import { createDatabases, databaseUrl, dropDatabases, migrateForward, queryDatabase } from '@media/testing';
import { contentApp } from '../src/app.definition';

/** The first migration of the platform's tombstones: everything before it is "the old migrations". */
const TOMBSTONES = 'DeletedDocumentsTable1766000000000';

const forward = (url: string, between: (url: string) => Promise<unknown>) =>
  migrateForward(url, {
    migrations: contentApp.database.migrations,
    firstNew: TOMBSTONES,
    migrate: (at, migrations) => migrateDatabase('content', { url: at }, { entities: [], migrations }),
    table: 'deleted_documents',
    orderBy: 'document_id',
    between,
  });

describe('deleted_documents, migrating forward', () => {
  const name = `int_${Date.now()}_${randomUUID().slice(0, 6)}_content_tombstones`;
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
