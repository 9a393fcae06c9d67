/**
 * documents between the apps (docs/api/contract.md §5): the `documents.documents.get` and `get-many`
 * responders called as another app's Nest client would, and `documents.document.deleted`
 * delivered to a durable JetStream consumer that was not running when the delete happened.
 */
import { randomUUID } from 'node:crypto';
import { AckPolicy, DeliverPolicy, jetstream, jetstreamManager } from '@nats-io/jetstream';
import { rpcTestClientForFile } from '@media/testing';
import { caller, db, documents, eventually, system, uploaded } from './support';

const rpc = rpcTestClientForFile(() => system().env.NATS_URL);

const ask = <T = any>(subject: string, data: unknown) => rpc.ask<T>(subject, data);

const remove = (id: string, token: string) =>
  documents(`/api/v1/documents/${id}`, { method: 'DELETE', token });

describe('documents.documents.get', () => {
  it('answers the record of a live document, null for an unknown, malformed or deleted one', async () => {
    const writer = caller();
    const doc = await uploaded(writer, 'over nats', { filename: 'n.txt', contentType: 'text/plain' });
    const found = await ask('documents.documents.get', { id: doc.id });
    expect(found.err).toBeUndefined();
    expect(found.response).toEqual(doc);
    expect((await ask('documents.documents.get', { id: doc.id.toUpperCase() })).response).toEqual(doc);
    expect((await ask('documents.documents.get', { id: randomUUID() })).response).toBeNull();
    expect((await ask('documents.documents.get', { id: 'not-a-uuid' })).response).toBeNull();
    expect((await remove(doc.id, writer.token)).status).toBe(204);
    expect((await ask('documents.documents.get', { id: doc.id })).response).toBeNull();
  });

  it('answers a malformed payload with a 422 at ["data", ...]', async () => {
    const reply = await ask('documents.documents.get', { id: 42 });
    expect(reply.err).toMatchObject({
      status: 422,
      detail: [expect.objectContaining({ loc: ['data', 'id'] })],
    });
    const missing = await ask('documents.documents.get', {});
    expect(missing.err).toMatchObject({
      status: 422,
      detail: [expect.objectContaining({ loc: ['data', 'id'], type: 'missing' })],
    });
  });
});

describe('documents.documents.get-many', () => {
  it('answers live documents in the order asked, each once; unknown, malformed and deleted ids absent', async () => {
    const writer = caller();
    const a = await uploaded(writer, 'a');
    const b = await uploaded(writer, 'b');
    const gone = await uploaded(writer, 'gone');
    expect((await remove(gone.id, writer.token)).status).toBe(204);
    const reply = await ask('documents.documents.get-many', {
      ids: [b.id, randomUUID(), a.id, 'nope', gone.id, b.id, a.id.toUpperCase()],
    });
    expect(reply.err).toBeUndefined();
    expect(reply.response).toEqual([b, a]);
    expect((await ask('documents.documents.get-many', { ids: [] })).response).toEqual([]);
  });

  it('takes at most 500 ids', async () => {
    const ok = await ask('documents.documents.get-many', {
      ids: Array.from({ length: 500 }, () => randomUUID()),
    });
    expect(ok.response).toEqual([]);
    const tooMany = await ask('documents.documents.get-many', {
      ids: Array.from({ length: 501 }, () => randomUUID()),
    });
    expect(tooMany.err).toMatchObject({
      status: 422,
      detail: [expect.objectContaining({ loc: ['data', 'ids'], type: 'too_long' })],
    });
    const notList = await ask('documents.documents.get-many', { ids: 'x' });
    expect(notList.err).toMatchObject({ status: 422 });
  });
});

describe('documents.document.deleted', () => {
  it('reaches a durable consumer that was stopped during the delete, once it starts again', async () => {
    const jsm = await jetstreamManager(rpc.nc);
    const durable = `documents-e2e-${randomUUID().slice(0, 8)}`;
    // The consumer exists (as a stopped app's would) but nobody is pulling from it.
    await jsm.consumers.add('EVENTS', {
      durable_name: durable,
      filter_subject: 'documents.document.deleted',
      ack_policy: AckPolicy.Explicit,
      deliver_policy: DeliverPolicy.New,
    });
    try {
      const writer = caller();
      const doc = await uploaded(writer, 'watched');
      const moderator = caller(['documents:delete']);
      expect((await remove(doc.id, moderator.token)).status).toBe(204);
      // The outbox relay published the event while the consumer was still stopped.
      await eventually(
        () =>
          db(
            system().databases.documents,
            `SELECT 1 FROM outbox WHERE subject = 'documents.document.deleted'
               AND payload->>'document_id' = $1 AND published_at IS NOT NULL`,
            [doc.id],
          ),
        (rows) => rows.length === 1,
      );

      const consumer = await jetstream(rpc.nc).consumers.get('EVENTS', durable);
      const deadline = Date.now() + 10_000;
      let event: Record<string, any> | undefined;
      while (!event && Date.now() < deadline) {
        const batch = await consumer.fetch({ max_messages: 50, expires: 1000 });
        for await (const message of batch) {
          const body = message.json<Record<string, any>>();
          message.ack();
          if (body.data?.document_id === doc.id) event = body;
        }
      }
      expect(event).toEqual({
        id: expect.any(String),
        subject: 'documents.document.deleted',
        occurred_at: expect.any(String),
        data: {
          document_id: doc.id,
          uploaded_by: writer.id,
          deleted_by: moderator.id,
          deleted_at: expect.any(String),
        },
        meta: expect.objectContaining({ user_id: moderator.id }),
      });
    } finally {
      await jsm.consumers.delete('EVENTS', durable);
    }
  });
});
