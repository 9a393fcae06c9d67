/**
 * Helpers for content's e2e tests: the stack booted by the global setup, reached through the
 * gateway as a client would; users made through acl's API (so `uploaded_by` comes from acl over
 * NATS); documents from the stack's documents app (a test needing them fails when it does not run).
 */
import { randomUUID } from 'node:crypto';
import { jetstream } from '@nats-io/jetstream';
import { connect, type NatsConnection, type Subscription } from '@nats-io/transport-node';
import type { EventEnvelope } from '@media/contracts';
import { adminToken, appClient, appDatabase, call, e2eStack, mintToken, requireApps } from '@media/testing';

/** The stack booted by the global setup. */
export const system = e2eStack;

/** A request to a content path (`/api/v1/...`), through the gateway. */
export const content = appClient('content');

/** One query on content's own database. */
export const contentDb = appDatabase('content');

export function tokenWith(permissions: string[], sub: string = randomUUID()): string {
  return mintToken(system().keys, { permissions, sub });
}

const admin = (): Promise<string> => adminToken(system());

/** A user created in acl, with a token carrying the given permissions. */
export async function editor(
  permissions: string[] = ['lineup:read', 'lineup:write'],
  fields: Record<string, unknown> = {},
): Promise<{ id: string; token: string; name: string; employee_number: string }> {
  const employee_number = `E-${randomUUID().slice(0, 8)}`;
  const json = {
    email: `editor-${randomUUID().slice(0, 8)}@example.com`,
    password: 'correct horse battery',
    first_name: 'Edna',
    last_name: 'Editor',
    employee_number,
    ...fields,
  };
  const res = await call(system().gatewayUrl, '/acl/api/v1/users', { token: await admin(), json });
  if (res.status !== 201) throw new Error(`user create failed: ${res.status} ${res.text}`);
  const id = (res.body as { id: string }).id;
  return { id, token: tokenWith(permissions, id), name: 'Edna Editor', employee_number };
}

export { eventually, follow } from '@media/testing';

export function schedule(fields: Record<string, unknown> = {}): Record<string, unknown> {
  return {
    medium: 'TV',
    channel: 'One',
    month: 3,
    year: 2026,
    title: 'March lineup',
    effective_from: '2026-03-01',
    effective_to: '2026-03-31',
    ...fields,
  };
}

/** `{ data }` as Nest's NATS client sends it, and the reply it expects. */
interface NestPacket<T> {
  id: string;
  data: { data: T };
}

/** Answers one request/reply subject the way a Nest responder does. */
export function respond<T>(nc: NatsConnection, subject: string, answer: (data: T) => unknown): Subscription {
  return nc.subscribe(subject, {
    callback: (_error, msg) => {
      const packet = msg.json<NestPacket<T>>();
      msg.respond(JSON.stringify({ id: packet.id, response: answer(packet.data.data), isDisposed: true }));
    },
  });
}

/** Publishes an event through JetStream as an outbox relay does. */
export async function publishEvent<T>(
  natsUrl: string,
  subject: string,
  data: T,
  id = randomUUID(),
): Promise<string> {
  const nc = await connect({ servers: natsUrl });
  try {
    const event: EventEnvelope<T> = { id, subject, occurred_at: new Date().toISOString(), data, meta: {} };
    await jetstream(nc).publish(subject, JSON.stringify(event), { msgID: `${id}-${randomUUID()}` });
  } finally {
    await nc.close();
  }
  return id;
}

/** Live and deleted documents of the stack's documents app. */
export interface Documents {
  create(): Promise<string>;
  remove(id: string): Promise<void>;
}

/**
 * The documents app of the stack (uploads and deletes through the gateway); throws when the run
 * does not boot it (E2E_APPS without documents).
 */
export function documents(): Documents {
  requireApps('documents');
  const token = mintToken(system().keys, { permissions: ['documents:write', 'documents:delete'] });
  return {
    create: async () => {
      const form = new FormData();
      form.append('file', new Blob(['hello']), 'asset.txt');
      const res = await call(system().gatewayUrl, '/documents/api/v1/documents', { token, multipart: form });
      if (res.status !== 201) throw new Error(`upload failed: ${res.status} ${res.text}`);
      return (res.body as { id: string }).id;
    },
    remove: async (id) => {
      const res = await call(system().gatewayUrl, `/documents/api/v1/documents/${id}`, {
        token,
        method: 'DELETE',
      });
      if (res.status !== 204) throw new Error(`delete failed: ${res.status} ${res.text}`);
    },
  };
}
