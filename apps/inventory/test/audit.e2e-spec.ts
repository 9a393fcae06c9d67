/**
 * inventory's audit trail (CONTRACT §8.1): a booking's creation records the booking and its
 * lines, an asset's update its changed fields only, a refused change nothing, and the detach
 * caused by `documents.document.deleted` names its consumer as the actor and the event as cause.
 */
import { randomUUID } from 'node:crypto';
import type { NatsConnection } from '@nats-io/transport-node';
import { recordedEntries, sealedEntries } from '@media/testing';
import {
  addDocument,
  createAsset,
  createBooking,
  inventory,
  line,
  natsConnection,
  publishDocumentDeleted,
  system,
  writer,
} from './support';

let nc: NatsConnection;
const db = () => system().databases.inventory;

beforeAll(async () => {
  nc = await natsConnection();
});

afterAll(async () => {
  await nc.close();
});

describe('the audit trail of inventory', () => {
  it('records a booking and its line created, and an asset updated with only its changed fields', async () => {
    const sub = randomUUID();
    const booking = await createBooking({ client_name: 'Audited' }, writer(sub));
    const [created] = await sealedEntries(db(), { type: 'booking', id: booking.id }, 1);
    expect(created).toMatchObject({
      app: 'inventory',
      action: 'booking.created',
      actor: { type: 'user', id: sub, name: 'Test User' },
      resource: { type: 'booking', id: booking.id },
      cause: null,
    });
    expect(created.changes.client_name).toEqual([null, 'Audited']);
    const [lineCreated] = await sealedEntries(db(), { type: 'booking.line', id: booking.lines[0].id }, 1);
    expect(lineCreated.action).toBe('booking.line.created');

    const asset = await createAsset(booking.id, booking.lines[0].id, { notes: 'first' });
    const path = `/api/v1/bookings/${booking.id}/lines/${booking.lines[0].id}/assets/${asset.id}`;
    const patched = await inventory(path, { method: 'PATCH', token: writer(sub), json: { notes: 'second' } });
    expect(patched.status).toBe(200);
    const [, updated] = await sealedEntries(db(), { type: 'booking.line.asset', id: asset.id }, 2);
    expect(updated).toMatchObject({
      action: 'booking.line.asset.updated',
      actor: { type: 'user', id: sub },
      changes: { notes: ['first', 'second'] },
    });
    expect(Object.keys(updated.changes)).toEqual(['notes']);
  });

  it('records nothing for a refused change', async () => {
    const booking = await createBooking({ lines: [line()] });
    const asset = await createAsset(booking.id, booking.lines[0].id);
    await sealedEntries(db(), { type: 'booking.line.asset', id: asset.id }, 1);
    const path = `/api/v1/bookings/${booking.id}/lines/${booking.lines[0].id}/assets/${asset.id}`;
    const refused = await inventory(path, {
      method: 'PATCH',
      token: writer(),
      json: { document_id: randomUUID() },
    });
    expect(refused.status).toBe(422);
    expect(await recordedEntries(db(), asset.id)).toBe(1);
  });

  it('names the consumer and the event of a detach caused by documents.document.deleted', async () => {
    const doc = await addDocument();
    const booking = await createBooking();
    const asset = await createAsset(booking.id, booking.lines[0].id, { document_id: doc });
    const eventId = await publishDocumentDeleted(nc, doc);
    const [, detached] = await sealedEntries(db(), { type: 'booking.line.asset', id: asset.id }, 2);
    expect(detached).toMatchObject({
      action: 'booking.line.asset.updated',
      actor: { type: 'system', id: expect.stringMatching(/^inventory:/), name: null },
      cause: eventId,
      request_id: `test-${eventId}`,
      changes: { document_id: [doc, null] },
    });
  });
});
