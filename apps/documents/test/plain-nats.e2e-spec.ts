/**
 * Any NATS client can call documents' responders (docs/nats.md): a bare `@nats-io/transport-node`
 * connection sends plain JSON and gets plain JSON back; a failure is a JSON error with a code
 * and the NATS service-error headers, never silence.
 */
import { randomUUID } from 'node:crypto';
import { connect, type NatsConnection } from '@nats-io/transport-node';
import { caller, system, uploaded } from './support';

let nc: NatsConnection;

beforeAll(async () => {
  nc = await connect({ servers: system().env.NATS_URL });
});

afterAll(async () => {
  await nc.close();
});

const request = (subject: string, data: unknown) =>
  nc.request(subject, JSON.stringify(data), { timeout: 5_000 });

describe('documents over plain NATS', () => {
  it('answers documents.documents.get and get-many with the plain JSON records', async () => {
    const doc = await uploaded(caller(), 'plain nats', { filename: 'plain.txt', contentType: 'text/plain' });
    const one = await request('documents.documents.get', { id: doc.id });
    expect(one.headers?.get('Nats-Service-Error-Code') ?? '').toBe('');
    expect(one.json()).toEqual(doc);
    expect((await request('documents.documents.get', { id: randomUUID() })).json()).toBeNull();
    const many = await request('documents.documents.get-many', { ids: [randomUUID(), doc.id] });
    expect(many.json()).toEqual([doc]);
  });

  it('answers a malformed request with a JSON 422 and the service-error headers', async () => {
    const reply = await request('documents.documents.get', { id: 42 });
    expect(reply.headers?.get('Nats-Service-Error-Code')).toBe('422');
    expect(reply.json()).toEqual({
      error: {
        status: 422,
        code: 'validation_error',
        detail: [expect.objectContaining({ loc: ['data', 'id'] })],
      },
    });
  });
});
