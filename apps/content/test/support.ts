/**
 * Helpers for content's e2e tests: the stack booted by the global setup, reached through the
 * gateway as a client would; users made through acl's API (so `uploaded_by` comes from acl over
 * NATS); documents from the documents app when it answers `documents.documents.get`, else from a
 * small responder run here, whose deletions are published through JetStream as documents would.
 */
import { randomUUID } from 'node:crypto';
import { jetstream } from '@nats-io/jetstream';
import { connect, type NatsConnection, type Subscription } from '@nats-io/transport-node';
import {
  DocumentsEvents,
  DocumentsSubjects,
  type DocumentDeletedEvent,
  type DocumentRecord,
  type EventEnvelope,
} from '@media/contracts';
import { adminToken, appClient, appDatabase, call, e2eStack, mintToken } from '@media/testing';

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

/** Live and deleted documents, from the documents app or from a responder run by the test. */
export interface Documents {
  create(): Promise<string>;
  remove(id: string): Promise<void>;
  close(): Promise<void>;
}

function record(id: string, uploaded_by: string): DocumentRecord {
  return {
    id,
    filename: 'asset.txt',
    content_type: 'text/plain',
    size: 5,
    sha256: '0'.repeat(64),
    uploaded_by,
    created_at: new Date().toISOString(),
  };
}

/** A documents stand-in on `natsUrl`: answers `documents.documents.get` and publishes deletions. */
export async function fakeDocuments(natsUrl: string): Promise<Documents> {
  const nc = await connect({ servers: natsUrl });
  const live = new Map<string, DocumentRecord>();
  respond<{ id: string }>(nc, DocumentsSubjects.documentsGet, ({ id }) => live.get(id) ?? null);
  await nc.flush();
  return {
    create: async () => {
      const id = randomUUID();
      live.set(id, record(id, randomUUID()));
      return id;
    },
    remove: async (id) => {
      const doc = live.get(id);
      live.delete(id);
      await publishEvent<DocumentDeletedEvent>(natsUrl, DocumentsEvents.documentDeleted, {
        document_id: id,
        uploaded_by: doc?.uploaded_by ?? randomUUID(),
      } as DocumentDeletedEvent);
    },
    close: () => nc.close(),
  };
}

/** The documents app of the stack, used when it answers; uploads and deletes over HTTP. */
function realDocuments(): Documents {
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
    close: async () => undefined,
  };
}

/** The real documents app when it answers on the stack's NATS, else a stand-in. */
export async function documents(): Promise<Documents> {
  const natsUrl = system().env.NATS_URL;
  const nc = await connect({ servers: natsUrl });
  let real = false;
  try {
    await nc.request(
      DocumentsSubjects.documentsGet,
      JSON.stringify({
        id: randomUUID(),
        pattern: DocumentsSubjects.documentsGet,
        data: { data: { id: randomUUID() }, meta: {} },
      }),
      { timeout: 1_000 },
    );
    real = true;
  } catch {
    real = false;
  } finally {
    await nc.close();
  }
  return real ? realDocuments() : fakeDocuments(natsUrl);
}
