/**
 * Any NATS client can call acl's responders (docs/nats.md): a bare `@nats-io/transport-node`
 * connection sends plain JSON, no Nest framing, and gets plain JSON back; a failure is a JSON
 * error with a code and the NATS service-error headers, never silence.
 */
import { randomUUID } from 'node:crypto';
import { connect, type NatsConnection } from '@nats-io/transport-node';
import { createUser, system } from './support';

let nc: NatsConnection;

beforeAll(async () => {
  nc = await connect({ servers: system().env.NATS_URL });
});

afterAll(async () => {
  await nc.close();
});

const request = (subject: string, body: string) => nc.request(subject, body, { timeout: 5_000 });

describe('acl over plain NATS', () => {
  it('answers a plain JSON request on acl.users.get-many with the plain JSON profiles', async () => {
    const user = await createUser({ first_name: 'Plain', last_name: 'Json' });
    const reply = await request('acl.users.get-many', JSON.stringify({ ids: [user.id, randomUUID()] }));
    expect(reply.headers?.get('Nats-Service-Error-Code') ?? '').toBe('');
    expect(reply.json()).toEqual([
      expect.objectContaining({ id: user.id, email: user.email, name: 'Plain Json', status: 'ACTIVE' }),
    ]);
  });

  it('answers a malformed request with a JSON 422 naming the field and the service-error headers', async () => {
    const reply = await request('acl.users.get-many', JSON.stringify({ ids: 'not-a-list' }));
    expect(reply.headers?.get('Nats-Service-Error-Code')).toBe('422');
    expect(reply.headers?.get('Nats-Service-Error')).toBeTruthy();
    expect(reply.json()).toEqual({
      error: {
        status: 422,
        code: 'validation_error',
        detail: expect.arrayContaining([expect.objectContaining({ loc: ['data', 'ids'] })]),
      },
    });
  });

  it('answers a body that is not JSON with a JSON 400 bad_request', async () => {
    const reply = await request('acl.users.permissions', 'user_id=42');
    expect(reply.headers?.get('Nats-Service-Error-Code')).toBe('400');
    expect(reply.json()).toEqual({
      error: { status: 400, code: 'bad_request', detail: 'The request body is not JSON.' },
    });
  });

  it('answers a payload nested deeper than 64 levels, or not UTF-8, with a JSON 422 json_invalid, unparsed', async () => {
    for (const [body, msg] of [
      ['['.repeat(1_000_000), 'JSON nested deeper than 64 levels'],
      [
        Buffer.from([0x7b, 0x22, 0x69, 0x64, 0x73, 0x22, 0x3a, 0x5b, 0x22, 0xff, 0x22, 0x5d, 0x7d]),
        'JSON body is not valid UTF-8',
      ],
    ] as const) {
      const reply = await nc.request('acl.users.get-many', body, { timeout: 5_000 });
      expect(reply.headers?.get('Nats-Service-Error-Code')).toBe('422');
      expect(reply.json()).toEqual({
        error: {
          status: 422,
          code: 'validation_error',
          detail: [{ loc: ['data'], msg, type: 'json_invalid' }],
        },
      });
    }
  });

  it('answers 900 unknown keys with the first 50 and a count, and 80,000 with one too_long item', async () => {
    const keys = (n: number) => Array.from({ length: n }, (_, i) => `"k${i}":1`).join(',');
    const reply = await request('acl.users.get-many', `{"ids":[],${keys(900)}}`);
    expect(reply.headers?.get('Nats-Service-Error-Code')).toBe('422');
    const detail = (reply.json() as { error: { detail: { loc: string[]; type: string; msg: string }[] } })
      .error.detail;
    expect(detail).toHaveLength(51);
    expect(detail[0]).toEqual({
      loc: ['data', 'k0'],
      msg: 'Extra inputs are not permitted',
      type: 'extra_forbidden',
    });
    expect(detail[50]).toEqual({
      loc: ['data'],
      msg: '850 more errors were left out',
      type: 'too_many_errors',
    });

    const wide = await request('acl.users.get-many', `{"ids":[],${keys(80_000)}}`);
    expect(wide.json()).toEqual({
      error: {
        status: 422,
        code: 'validation_error',
        detail: [
          { loc: ['data'], msg: 'Object should have at most 1000 members, not 80001', type: 'too_long' },
        ],
      },
    });
  });

  it("still answers the apps' own Nest-framed request with Nest's framed reply", async () => {
    const id = randomUUID();
    const user = await createUser({ first_name: 'Framed', last_name: 'Call' });
    const reply = await request(
      'acl.users.exists',
      JSON.stringify({ id, pattern: 'acl.users.exists', data: { data: { ids: [user.id] }, meta: {} } }),
    );
    expect(reply.json()).toEqual({ id, response: { existing: [user.id] }, isDisposed: true });
  });
});
