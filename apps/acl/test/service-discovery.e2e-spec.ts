/**
 * NATS service discovery (`nats micro list|info|stats`): a plain NATS client finds acl on
 * `$SRV.PING`, lists its responders with `$SRV.INFO.acl`, and reads their request and error
 * counts with `$SRV.STATS.acl`, while the responders answer as before.
 */
import { randomUUID } from 'node:crypto';
import { AclSubjects, SERVICE_NAMES } from '@media/contracts';
import { eventually } from '@media/testing';
import { connect, createInbox, type NatsConnection } from '@nats-io/transport-node';
import { system } from './support';

let nc: NatsConnection;

beforeAll(async () => {
  nc = await connect({ servers: system().env.NATS_URL });
});

afterAll(async () => {
  await nc.close();
});

interface Endpoint {
  name: string;
  subject: string;
  queue_group: string;
  num_requests: number;
  num_errors: number;
  processing_time: number;
  average_processing_time: number;
}

const ask = async <T>(subject: string): Promise<T> =>
  (await nc.request(subject, '', { timeout: 5_000 })).json<T>();

const statsOf = async (subject: string): Promise<Endpoint> => {
  const stats = await ask<{ endpoints: Endpoint[] }>('$SRV.STATS.acl');
  return stats.endpoints.find((endpoint) => endpoint.subject === subject)!;
};

describe('NATS service discovery ($SRV)', () => {
  it('answers $SRV.PING from every app of the stack, each as the service named after it', async () => {
    const inbox = createInbox();
    const names = new Set<string>();
    const sub = nc.subscribe(inbox, {
      callback: (_error, message) => {
        names.add(message.json<{ name: string }>().name);
      },
    });
    nc.publish('$SRV.PING', '', { reply: inbox });
    // The apps this stack booted (E2E_APPS may name fewer than all).
    const apps = SERVICE_NAMES.filter((app) => app in system().urls);
    const seen = await eventually(
      () => Promise.resolve(new Set(names)),
      (found) => apps.every((app) => found.has(app)),
    );
    sub.unsubscribe();
    expect([...seen].filter((name) => (apps as string[]).includes(name)).sort()).toEqual([...apps].sort());
    expect(apps).toContain('acl');
    const ping = await ask<Record<string, unknown>>('$SRV.PING.acl');
    expect(ping).toEqual({
      type: 'io.nats.micro.v1.ping_response',
      name: 'acl',
      id: expect.any(String),
      version: '1.0.0',
      metadata: {},
    });
  });

  it("lists acl's responders with their subjects and queue group on $SRV.INFO.acl", async () => {
    const info = await ask<{ type: string; name: string; id: string; endpoints: Endpoint[] }>(
      '$SRV.INFO.acl',
    );
    expect(info.type).toBe('io.nats.micro.v1.info_response');
    expect(info.name).toBe('acl');
    expect(info.endpoints.map(({ subject, queue_group }) => ({ subject, queue_group }))).toEqual(
      Object.values(AclSubjects)
        .sort()
        .map((subject) => ({ subject, queue_group: 'acl' })),
    );
    // The instance answers on its own id too.
    expect((await ask<{ id: string }>(`$SRV.INFO.acl.${info.id}`)).id).toBe(info.id);
  });

  it('counts requests, errors and handling time on $SRV.STATS.acl, and the responder answers as before', async () => {
    const before = await statsOf(AclSubjects.usersGetMany);
    const ok = await nc.request(AclSubjects.usersGetMany, JSON.stringify({ ids: [randomUUID()] }), {
      timeout: 5_000,
    });
    expect(ok.json()).toEqual([]);
    const refused = await nc.request(AclSubjects.usersGetMany, JSON.stringify({ ids: 'nope' }), {
      timeout: 5_000,
    });
    expect(refused.headers?.get('Nats-Service-Error-Code')).toBe('422');
    const after = await eventually(
      () => statsOf(AclSubjects.usersGetMany),
      (stats) => stats.num_requests >= before.num_requests + 2,
    );
    expect({
      requests: after.num_requests - before.num_requests,
      errors: after.num_errors - before.num_errors,
    }).toEqual({ requests: 2, errors: 1 });
    expect(after.processing_time).toBeGreaterThan(before.processing_time);
    expect(after.average_processing_time).toBeGreaterThan(0);
  });
});
