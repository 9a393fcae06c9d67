/**
 * Helpers for inventory's e2e tests: the stack booted by the global setup, reached through the
 * gateway as a client would, documents uploaded to the stack's documents app, and JetStream
 * publishing of documents' deletion event.
 */
import { randomUUID } from 'node:crypto';
import { jetstream } from '@nats-io/jetstream';
import { connect, type NatsConnection } from '@nats-io/transport-node';
import { DocumentsEvents } from '@media/contracts';
import { appClient, appDatabase, call, e2eStack, mintToken, requireApps } from '@media/testing';

/** The stack booted by the global setup. */
export const system = e2eStack;

/** A request to a inventory path (`/api/v1/...`), through the gateway. */
export const inventory = appClient('inventory');

/** One query on inventory's own database. */
export const inventoryDb = appDatabase('inventory');

export function tokenWith(permissions: string[], sub: string = randomUUID()): string {
  return mintToken(system().keys, { permissions, sub });
}

export const writer = (sub?: string) => tokenWith(['bookings:read', 'bookings:write'], sub);
export const reader = () => tokenWith(['bookings:read']);

export { follow } from '@media/testing';

export function line(fields: Record<string, unknown> = {}): Record<string, unknown> {
  return {
    platform: 'TV',
    category: 'News',
    channel: 'Channel 1',
    start_date: '2026-01-01',
    end_date: '2026-01-31',
    spots: 10,
    rate_card_amount: '100.00',
    booked_amount: '90.00',
    ...fields,
  };
}

export const reference = (tag = 'B') => `${tag}-${randomUUID()}`;

/** Creates a booking through the API; fails the test on anything but 201. */
export async function createBooking(
  fields: Record<string, unknown> = {},
  token = writer(),
): Promise<Record<string, any>> {
  const res = await inventory('/api/v1/bookings', {
    token,
    json: { reference: reference(), client_name: 'Acme', lines: [line()], ...fields },
  });
  if (res.status !== 201) throw new Error(`booking create failed: ${res.status} ${res.text}`);
  return res.body as Record<string, any>;
}

export async function createAsset(
  orderId: string,
  lineId: string,
  fields: Record<string, unknown> = {},
): Promise<Record<string, any>> {
  const res = await inventory(`/api/v1/bookings/${orderId}/lines/${lineId}/assets`, {
    token: writer(),
    json: { name: 'Spot A', ...fields },
  });
  if (res.status !== 201) throw new Error(`asset create failed: ${res.status} ${res.text}`);
  return res.body as Record<string, any>;
}

/**
 * A document uploaded to the stack's documents app through the gateway (docs/api/contract.md
 * §4.11); its id. Throws when the run does not boot documents (E2E_APPS without it).
 */
export async function addDocument(): Promise<string> {
  requireApps('documents');
  const form = new FormData();
  form.append('file', new Blob([randomUUID()], { type: 'video/mp4' }), 'spot.mp4');
  const res = await call(system().gatewayUrl, '/documents/api/v1/documents', {
    token: tokenWith(['documents:write']),
    multipart: form,
  });
  if (res.status !== 201) throw new Error(`document upload failed: ${res.status} ${res.text}`);
  return (res.body as { id: string }).id;
}

export async function natsConnection(): Promise<NatsConnection> {
  return connect({ servers: system().env.NATS_URL });
}

/** Publishes `documents.document.deleted` through JetStream, as documents' outbox does. */
export async function publishDocumentDeleted(
  nc: NatsConnection,
  documentId: string,
  eventId: string = randomUUID(),
): Promise<string> {
  const event = {
    id: eventId,
    subject: DocumentsEvents.documentDeleted,
    occurred_at: new Date().toISOString(),
    data: { document_id: documentId, uploaded_by: randomUUID() },
    meta: { request_id: `test-${eventId}` },
  };
  await jetstream(nc).publish(DocumentsEvents.documentDeleted, JSON.stringify(event), { msgID: eventId });
  return eventId;
}
