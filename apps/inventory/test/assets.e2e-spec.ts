/**
 * Line assets: creation and their update (docs/api/contract.md §4.5): partial updates, the document checked
 * with the documents app over NATS (a documents outage: documents-down.e2e-spec.ts), null detaching, every id checked under
 * its parents (docs/api/contract.md §1: 404, never a leak), and documents' deletion event (§4.11) nulling
 * the reference while the asset keeps its row.
 */
import { eventually } from '@media/testing';
import { randomUUID } from 'node:crypto';
import type { NatsConnection } from '@nats-io/transport-node';
import {
  addDocument,
  createAsset,
  createBooking,
  inventory,
  inventoryDb,
  line,
  natsConnection,
  publishDocumentDeleted,
  reader,
  writer,
} from './support';

let nc: NatsConnection;

beforeAll(async () => {
  nc = await natsConnection();
});

afterAll(async () => {
  await nc.close();
});

const patchAsset = (path: string, json: unknown, token = writer()) =>
  inventory(`/api/v1/bookings/${path}`, { method: 'PATCH', token, json });

async function bookingWithAsset(fields: Record<string, unknown> = {}) {
  const booking = await createBooking({ lines: [line(), line({ platform: 'RADIO' })] });
  const [first, second] = booking.lines as { id: string }[];
  const asset = await createAsset(booking.id, first.id, fields);
  return { booking, first, second, asset, path: `${booking.id}/lines/${first.id}/assets/${asset.id}` };
}

describe('POST .../bookings/{order_id}/lines/{line_id}/assets', () => {
  it('creates an asset (201) that the booking shows under its line', async () => {
    const doc = await addDocument();
    const { booking, first, asset } = await bookingWithAsset({ document_id: doc, notes: 'Cut B' });
    expect(asset).toEqual({
      id: expect.any(String),
      line_id: first.id,
      name: 'Spot A',
      document_id: doc,
      notes: 'Cut B',
      created_at: expect.any(String),
      updated_at: expect.any(String),
    });
    const got = await inventory(`/api/v1/bookings/${booking.id}`, { token: reader() });
    expect(got.body.lines[0].assets).toEqual([asset]);
    expect(got.body.lines[1].assets).toEqual([]);
  });

  it('refuses an unknown document with 422 at ["body","document_id"], a missing name, and a foreign line with 404', async () => {
    const booking = await createBooking();
    const other = await createBooking();
    const path = `/api/v1/bookings/${booking.id}/lines/${booking.lines[0].id}/assets`;
    const unknown = await inventory(path, {
      token: writer(),
      json: { name: 'x', document_id: randomUUID() },
    });
    expect(unknown.status).toBe(422);
    expect(unknown.body.detail).toEqual([
      { loc: ['body', 'document_id'], msg: expect.any(String), type: 'value_error' },
    ]);
    const missing = await inventory(path, { token: writer(), json: {} });
    expect(missing.body.detail).toEqual([{ loc: ['body', 'name'], msg: 'Field required', type: 'missing' }]);
    const foreign = await inventory(`/api/v1/bookings/${booking.id}/lines/${other.lines[0].id}/assets`, {
      token: writer(),
      json: { name: 'x' },
    });
    expect(foreign.status).toBe(404);
    expect(await inventoryDb('SELECT 1 FROM line_assets WHERE line_id = $1', [other.lines[0].id])).toEqual(
      [],
    );
  });
});

describe('PATCH .../lines/{line_id}/assets/{asset_id}', () => {
  it('updates each field alone, keeping the others', async () => {
    const { asset, path } = await bookingWithAsset({ notes: 'n0' });
    const doc = await addDocument();
    const name = await patchAsset(path, { name: 'Renamed' });
    expect(name.status).toBe(200);
    expect(name.body).toEqual({ ...asset, name: 'Renamed', updated_at: expect.any(String) });
    const attached = await patchAsset(path, { document_id: doc });
    expect(attached.body).toEqual({
      ...asset,
      name: 'Renamed',
      document_id: doc,
      updated_at: expect.any(String),
    });
    const notes = await patchAsset(path, { notes: '' });
    expect(notes.body).toEqual({ ...attached.body, notes: '', updated_at: expect.any(String) });
    expect(Date.parse(notes.body.updated_at)).toBeGreaterThanOrEqual(Date.parse(asset.updated_at));
  });

  it('detaches with document_id null and clears notes with null; name cannot be null', async () => {
    const { path } = await bookingWithAsset({ document_id: await addDocument(), notes: 'x' });
    const res = await patchAsset(path, { document_id: null, notes: null });
    expect(res.status).toBe(200);
    expect(res.body).toMatchObject({ document_id: null, notes: null, name: 'Spot A' });
    const nullName = await patchAsset(path, { name: null });
    expect(nullName.status).toBe(422);
    expect(nullName.body.detail).toEqual([
      { loc: ['body', 'name'], msg: expect.any(String), type: 'string_type' },
    ]);
  });

  it('refuses an empty body with 422 at ["body"] and unknown fields as extra_forbidden', async () => {
    const { path } = await bookingWithAsset();
    const res = await patchAsset(path, {});
    expect(res.status).toBe(422);
    expect(res.body.detail).toEqual([{ loc: ['body'], msg: expect.any(String), type: 'value_error' }]);
    const extra = await patchAsset(path, { line_id: randomUUID() });
    expect(extra.body.detail).toEqual([
      { loc: ['body', 'line_id'], msg: expect.any(String), type: 'extra_forbidden' },
    ]);
    const nullBody = await inventory(`/api/v1/bookings/${path}`, {
      method: 'PATCH',
      token: writer(),
      raw: 'null',
      headers: { 'content-type': 'application/json' },
    });
    expect(nullBody.status).toBe(422);
    expect(nullBody.body.detail[0].loc).toEqual(['body']);
  });

  it('bounds name to 1..255 and notes to 0..2000 characters', async () => {
    const { path } = await bookingWithAsset();
    expect((await patchAsset(path, { name: 'n'.repeat(255) })).status).toBe(200);
    expect((await patchAsset(path, { name: 'n'.repeat(256) })).body.detail[0]).toMatchObject({
      type: 'string_too_long',
    });
    expect((await patchAsset(path, { name: '' })).body.detail[0]).toMatchObject({ type: 'string_too_short' });
    expect((await patchAsset(path, { notes: 'x'.repeat(2000) })).status).toBe(200);
    expect((await patchAsset(path, { notes: 'x'.repeat(2001) })).body.detail[0]).toMatchObject({
      loc: ['body', 'notes'],
      type: 'string_too_long',
    });
  });

  it('refuses a malformed or unknown document with 422 at ["body","document_id"]', async () => {
    const { path } = await bookingWithAsset();
    const malformed = await patchAsset(path, { document_id: 'doc-1' });
    expect(malformed.body.detail).toEqual([
      { loc: ['body', 'document_id'], msg: expect.any(String), type: 'uuid_parsing' },
    ]);
    const unknown = await patchAsset(path, { document_id: randomUUID() });
    expect(unknown.status).toBe(422);
    expect(unknown.body.detail).toEqual([
      { loc: ['body', 'document_id'], msg: expect.any(String), type: 'value_error' },
    ]);
  });

  it('answers 404 for an asset under another line of the same order, changing nothing', async () => {
    const { booking, second, asset } = await bookingWithAsset();
    const res = await patchAsset(`${booking.id}/lines/${second.id}/assets/${asset.id}`, { name: 'Stolen' });
    expect(res.status).toBe(404);
    expect(res.body).toEqual({ detail: expect.any(String), code: 'not_found' });
    const [row] = await inventoryDb('SELECT name FROM line_assets WHERE id = $1', [asset.id]);
    expect(row.name).toBe('Spot A');
  });

  it('answers 404 for an asset of another order, through its line or not', async () => {
    const mine = await bookingWithAsset();
    const theirs = await bookingWithAsset();
    // Their line and asset under my order.
    expect(
      (
        await patchAsset(`${mine.booking.id}/lines/${theirs.first.id}/assets/${theirs.asset.id}`, {
          name: 'x',
        })
      ).status,
    ).toBe(404);
    // Their asset under my line.
    expect(
      (await patchAsset(`${mine.booking.id}/lines/${mine.first.id}/assets/${theirs.asset.id}`, { name: 'x' }))
        .status,
    ).toBe(404);
    // My asset and line under their order.
    expect(
      (await patchAsset(`${theirs.booking.id}/lines/${mine.first.id}/assets/${mine.asset.id}`, { name: 'x' }))
        .status,
    ).toBe(404);
    // Unknown ids.
    expect(
      (await patchAsset(`${mine.booking.id}/lines/${mine.first.id}/assets/${randomUUID()}`, { name: 'x' }))
        .status,
    ).toBe(404);
    expect(
      (await patchAsset(`${randomUUID()}/lines/${mine.first.id}/assets/${mine.asset.id}`, { name: 'x' }))
        .status,
    ).toBe(404);
    const rows = await inventoryDb('SELECT name FROM line_assets WHERE id = ANY($1::uuid[])', [
      [mine.asset.id, theirs.asset.id],
    ]);
    expect(rows.map((r) => r.name)).toEqual(['Spot A', 'Spot A']);
  });

  it('checks the body (422) before ownership (404), as docs/api/contract.md §1 orders', async () => {
    const { booking, second, asset } = await bookingWithAsset();
    const res = await patchAsset(`${booking.id}/lines/${second.id}/assets/${asset.id}`, {});
    expect(res.status).toBe(422);
  });

  it('reports malformed path ids at their path loc', async () => {
    const res = await patchAsset('x/lines/y/assets/z', { name: 'a' });
    expect(res.status).toBe(422);
    expect(res.body.detail.map((i: { loc: string[] }) => i.loc)).toEqual([
      ['path', 'order_id'],
      ['path', 'line_id'],
      ['path', 'asset_id'],
    ]);
  });

  it('answers 415 to a form body, 403 without bookings:write and 401 without a token', async () => {
    const { path } = await bookingWithAsset();
    expect(
      (await inventory(`/api/v1/bookings/${path}`, { method: 'PATCH', token: writer(), form: { name: 'x' } }))
        .status,
    ).toBe(415);
    expect((await patchAsset(path, { name: 'x' }, reader())).status).toBe(403);
    expect(
      (await inventory(`/api/v1/bookings/${path}`, { method: 'PATCH', json: { name: 'x' } })).status,
    ).toBe(401);
  });
});

describe('documents.document.deleted', () => {
  it('nulls document_id on every asset of the document, keeping the rows, once per event', async () => {
    const doc = await addDocument();
    const a = await bookingWithAsset({ document_id: doc });
    const b = await bookingWithAsset({ document_id: doc });
    const keep = await bookingWithAsset({ document_id: await addDocument() });
    const eventId = await publishDocumentDeleted(nc, doc);
    await eventually(
      async () => {
        const rows = await inventoryDb('SELECT document_id FROM line_assets WHERE id = ANY($1::uuid[])', [
          [a.asset.id, b.asset.id],
        ]);
        return rows.length === 2 && rows.every((r) => r.document_id === null);
      },
      (ok) => ok,
      { orThrow: true },
    );
    const got = await inventory(`/api/v1/bookings/${a.booking.id}`, { token: reader() });
    expect(got.body.lines[0].assets[0]).toMatchObject({ id: a.asset.id, name: 'Spot A', document_id: null });
    const [kept] = await inventoryDb('SELECT document_id FROM line_assets WHERE id = $1', [keep.asset.id]);
    expect(kept.document_id).not.toBeNull();
    const processed = await inventoryDb(
      'SELECT count(*)::int AS n FROM processed_events WHERE event_id = $1',
      [eventId],
    );
    expect(processed[0].n).toBe(1);
  });

  it('refuses to attach a document after its deletion was applied, even if asked before', async () => {
    const doc = await addDocument();
    const { path } = await bookingWithAsset();
    await publishDocumentDeleted(nc, doc);
    await eventually(
      async () =>
        (await inventoryDb('SELECT 1 FROM deleted_documents WHERE document_id = $1', [doc])).length === 1,
      (ok) => ok,
      { orThrow: true },
    );
    // The stand-in still knows it (as a lagging replica might): inventory remembers the deletion.
    const res = await patchAsset(path, { document_id: doc });
    expect(res.status).toBe(422);
    expect(res.body.detail[0].loc).toEqual(['body', 'document_id']);
  });

  it('never leaves a reference behind when attaches race the deletion event', async () => {
    const doc = await addDocument();
    const targets = await Promise.all(Array.from({ length: 10 }, () => bookingWithAsset()));
    const [results] = await Promise.all([
      Promise.all(targets.map((t) => patchAsset(t.path, { document_id: doc }))),
      publishDocumentDeleted(nc, doc),
    ]);
    // Each attach either landed before the deletion was applied (and was cleared by it) or came
    // after it and was refused.
    for (const r of results) expect([200, 422]).toContain(r.status);
    await eventually(
      async () =>
        (await inventoryDb('SELECT 1 FROM deleted_documents WHERE document_id = $1', [doc])).length === 1,
      (ok) => ok,
      { orThrow: true },
    );
    const left = await inventoryDb('SELECT id FROM line_assets WHERE document_id = $1', [doc]);
    expect(left).toEqual([]);
  });

  it('applies a redelivered event (another id, same document) without harm and skips a malformed one', async () => {
    const doc = await addDocument();
    const { asset, path } = await bookingWithAsset({ document_id: doc });
    await publishDocumentDeleted(nc, doc);
    await publishDocumentDeleted(nc, doc);
    const bad = randomUUID();
    await nc.flush();
    const { jetstream } = await import('@nats-io/jetstream');
    await jetstream(nc).publish(
      'documents.document.deleted',
      JSON.stringify({
        id: bad,
        subject: 'documents.document.deleted',
        occurred_at: new Date().toISOString(),
        data: { document_id: 'nope' },
        meta: {},
      }),
      { msgID: bad },
    );
    await eventually(
      async () =>
        (await inventoryDb('SELECT 1 FROM processed_events WHERE event_id = $1', [bad])).length === 1,
      (ok) => ok,
      { orThrow: true },
    );
    const [row] = await inventoryDb('SELECT document_id, name FROM line_assets WHERE id = $1', [asset.id]);
    expect(row).toEqual({ document_id: null, name: 'Spot A' });
    expect((await patchAsset(path, { name: 'still editable' })).status).toBe(200);
  });
});
