/**
 * documents' audit trail (CONTRACT §8.1): an upload records the document created, a deletion the
 * document deleted (a soft delete: `deleted_at` and `deleted_by` set), a refused deletion nothing.
 */
import { recordedEntries, sealedEntries } from '@media/testing';
import { caller, documents, system, uploaded } from './support';

const db = () => system().databases.documents;

describe('the audit trail of documents', () => {
  it('records an upload as created and a deletion as deleted, naming the caller', async () => {
    const writer = caller();
    const doc = await uploaded(writer, 'audited', { filename: 'audit.txt', contentType: 'text/plain' });
    const res = await documents(`/api/v1/documents/${doc.id}`, { method: 'DELETE', token: writer.token });
    expect(res.status).toBe(204);
    const [created, deleted] = await sealedEntries(db(), { type: 'document', id: doc.id }, 2);
    expect(created).toMatchObject({
      app: 'documents',
      action: 'document.created',
      actor: { type: 'user', id: writer.id },
      changes: { filename: [null, 'audit.txt'], uploaded_by: [null, writer.id] },
    });
    expect(deleted).toMatchObject({
      action: 'document.deleted',
      actor: { type: 'user', id: writer.id },
      changes: { deleted_by: [null, writer.id] },
    });
    expect(Object.keys(deleted.changes).sort()).toEqual(['deleted_at', 'deleted_by']);
  });

  it('records nothing for a refused deletion', async () => {
    const doc = await uploaded(caller(), 'kept');
    await sealedEntries(db(), { type: 'document', id: doc.id }, 1);
    const res = await documents(`/api/v1/documents/${doc.id}`, { method: 'DELETE', token: caller().token });
    expect(res.status).toBe(403);
    expect(await recordedEntries(db(), doc.id)).toBe(1);
  });
});
