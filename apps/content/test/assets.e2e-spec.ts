/**
 * Attaching a document to a slot (checked with documents over NATS), detach it, and the
 * attachments disappearing when documents announces a deletion (docs/api/contract.md §4.3, §5).
 */
import { randomUUID } from 'node:crypto';
import { content, documents, editor, eventually, schedule, tokenWith, type Documents } from './support';

let docs: Documents;
let writer: Awaited<ReturnType<typeof editor>>;
const reader = () => tokenWith(['lineup:read']);

beforeAll(async () => {
  docs = documents();
  writer = await editor();
});

/** A schedule with two slots; returns its id and the slots' ids in order. */
async function scheduleWithSlots(): Promise<{ id: string; slots: string[] }> {
  const created = await content('/api/v1/lineup', {
    token: writer.token,
    json: schedule({
      slots: [
        { air_date: '2026-03-01', start_time: '06:00', duration_seconds: 60, title: 'A' },
        { air_date: '2026-03-02', start_time: '06:00', duration_seconds: 60, title: 'B' },
      ],
    }),
  });
  expect(created.status).toBe(201);
  const slots = await content(`/api/v1/lineup/${created.body.id}/slots`, { token: reader() });
  return { id: created.body.id, slots: slots.body.results.map((s: { id: string }) => s.id) };
}

const etag = async (id: string) =>
  (await content(`/api/v1/lineup/${id}`, { token: reader() })).headers.get('etag');
const assetsOf = async (scheduleId: string) =>
  (await content(`/api/v1/lineup/${scheduleId}/slots`, { token: reader() })).body.results.map(
    (s: { assets: { document_id: string }[] }) => s.assets.map((a) => a.document_id),
  );

function attach(
  slotId: string,
  documentId: unknown,
  encoding: 'json' | 'form' | 'multipart' = 'json',
  token = writer.token,
) {
  const path = `/api/v1/lineup/slots/${slotId}/assets`;
  if (encoding === 'json') return content(path, { token, json: { document_id: documentId } });
  if (encoding === 'form') return content(path, { token, form: { document_id: String(documentId) } });
  const form = new FormData();
  form.append('document_id', String(documentId));
  return content(path, { token, multipart: form });
}

describe('POST /content/api/v1/lineup/slots/{slot_id}/assets', () => {
  it('attaches a known document: 200 with the whole schedule, the ETag moves, the slot lists the asset', async () => {
    const { id, slots } = await scheduleWithSlots();
    const doc = await docs.create();
    const res = await attach(slots[0], doc);
    expect(res.status).toBe(200);
    expect(res.body).toMatchObject({ id, slot_count: expect.any(Object), uploaded_by: { id: writer.id } });
    expect(res.headers.get('etag')).toBe('"2"');
    const listed = await content(`/api/v1/lineup/${id}/slots`, { token: reader() });
    expect(listed.body.results[0].assets).toEqual([
      { document_id: doc, attached_by: writer.id, attached_at: expect.stringMatching(/Z$/) },
    ]);
    // attaching it again is a no-op: same answer, same ETag
    const again = await attach(slots[0], doc);
    expect(again.status).toBe(200);
    expect(again.headers.get('etag')).toBe('"2"');
    expect(await assetsOf(id)).toEqual([[doc], []]);
  });

  it.each(['json', 'form', 'multipart'] as const)('accepts a %s body', async (encoding) => {
    const { id, slots } = await scheduleWithSlots();
    const doc = await docs.create();
    expect((await attach(slots[1], doc, encoding)).status).toBe(200);
    expect(await assetsOf(id)).toEqual([[], [doc]]);
  });

  it('refuses an unknown document at ["body","document_id"], and a deleted one', async () => {
    const { id, slots } = await scheduleWithSlots();
    const unknown = await attach(slots[0], randomUUID());
    expect(unknown.status).toBe(422);
    expect(unknown.body.detail).toEqual([
      { loc: ['body', 'document_id'], msg: expect.any(String), type: 'value_error' },
    ]);
    const doc = await docs.create();
    await docs.remove(doc);
    const deleted = await attach(slots[0], doc);
    expect(deleted.status).toBe(422);
    expect(deleted.body.detail[0].loc).toEqual(['body', 'document_id']);
    expect(await assetsOf(id)).toEqual([[], []]);
    expect(await etag(id)).toBe('"1"');
  });

  it('validates the body and path before looking anything up', async () => {
    const malformed = await attach(randomUUID(), 'not-a-uuid');
    expect(malformed.status).toBe(422);
    expect(malformed.body.detail).toEqual([
      { loc: ['body', 'document_id'], msg: expect.any(String), type: 'uuid_parsing' },
    ]);
    const missing = await content(`/api/v1/lineup/slots/${randomUUID()}/assets`, {
      token: writer.token,
      json: {},
    });
    expect(missing.body.detail).toEqual([
      { loc: ['body', 'document_id'], msg: 'Field required', type: 'missing' },
    ]);
    const path = await attach('nope', randomUUID());
    expect(path.body.detail[0].loc).toEqual(['path', 'slot_id']);
  });

  it('answers 404 for an unknown slot with a known document', async () => {
    const doc = await docs.create();
    const res = await attach(randomUUID(), doc);
    expect(res.status).toBe(404);
    expect(res.body.code).toBe('not_found');
  });

  it('needs lineup:write', async () => {
    const { slots } = await scheduleWithSlots();
    expect((await attach(slots[0], await docs.create(), 'json', reader())).status).toBe(403);
  });
});

describe('DELETE /content/api/v1/lineup/slots/{slot_id}/assets/{document_id}', () => {
  it('detaches (204, ETag moves), then answers 404', async () => {
    const { id, slots } = await scheduleWithSlots();
    const doc = await docs.create();
    await attach(slots[0], doc);
    const path = `/api/v1/lineup/slots/${slots[0]}/assets/${doc}`;
    const res = await content(path, { method: 'DELETE', token: writer.token });
    expect(res.status).toBe(204);
    expect(await etag(id)).toBe('"3"');
    expect(await assetsOf(id)).toEqual([[], []]);
    expect((await content(path, { method: 'DELETE', token: writer.token })).status).toBe(404);
    // a document attached to another slot is not under this one
    await attach(slots[1], doc);
    expect((await content(path, { method: 'DELETE', token: writer.token })).status).toBe(404);
    expect(
      (
        await content(`/api/v1/lineup/slots/${slots[0]}/assets/nope`, {
          method: 'DELETE',
          token: writer.token,
        })
      ).body.detail[0].loc,
    ).toEqual(['path', 'document_id']);
    expect((await content(path, { method: 'DELETE', token: reader() })).status).toBe(403);
  });
});

describe('documents.document.deleted', () => {
  it('removes the attachments of a deleted document within 5 s and moves each schedule’s ETag', async () => {
    const first = await scheduleWithSlots();
    const second = await scheduleWithSlots();
    const doc = await docs.create();
    const kept = await docs.create();
    await attach(first.slots[0], doc);
    await attach(first.slots[1], doc);
    await attach(first.slots[1], kept);
    await attach(second.slots[0], doc);
    const before = [await etag(first.id), await etag(second.id)];
    await docs.remove(doc);
    const assets = await eventually(
      async () => [await assetsOf(first.id), await assetsOf(second.id)],
      (value) =>
        JSON.stringify(value) ===
        JSON.stringify([
          [[], [kept]],
          [[], []],
        ]),
    );
    expect(assets).toEqual([
      [[], [kept]],
      [[], []],
    ]);
    const after = [await etag(first.id), await etag(second.id)];
    expect(after).toEqual([
      `"${Number(JSON.parse(before[0]!)) + 1}"`,
      `"${Number(JSON.parse(before[1]!)) + 1}"`,
    ]);
  });
});
