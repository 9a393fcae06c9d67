import { randomUUID } from 'node:crypto';
import { connect, type NatsConnection, type Subscription } from '@nats-io/transport-node';
import { AclSubjects, type UserProfile } from '@media/contracts';

/** Nest's reply packet to a NATS request: `{id, response, isDisposed}` or `{id, err, isDisposed}`. */
export interface NestReply<T> {
  id: string;
  response?: T;
  err?: { status: number; code: string; detail: unknown };
  isDisposed: boolean;
}

/**
 * Sends `data` to `subject` as another app's Nest client would (docs/api/contract.md §5): Nest's packet
 * `{id, pattern, data}` whose `data` is the `{data, meta}` envelope. Throws when the reply
 * answers another request's id.
 */
export async function askNats<T = any>(
  nc: NatsConnection,
  subject: string,
  data: unknown,
  { timeout = 3000, requestIdPrefix = 'rpc-test' } = {},
): Promise<NestReply<T>> {
  const id = randomUUID();
  const packet = { id, pattern: subject, data: { data, meta: { request_id: `${requestIdPrefix}-${id}` } } };
  const message = await nc.request(subject, JSON.stringify(packet), { timeout });
  const reply = message.json<NestReply<T>>();
  if (reply.id !== id) throw new Error(`the reply to request ${id} carries id ${String(reply.id)}`);
  return reply;
}

export interface RpcTestClient {
  /** The connection, for what else a test does on NATS (JetStream consumers, subscriptions). */
  nc: NatsConnection;
  ask<T = any>(subject: string, data: unknown): Promise<NestReply<T>>;
  close(): Promise<void>;
}

/** A plain NATS connection that calls the apps' responders (open in beforeAll, close in afterAll). */
export async function rpcTestClient(natsUrl: string): Promise<RpcTestClient> {
  const nc = await connect({ servers: natsUrl });
  return {
    nc,
    ask: (subject, data) => askNats(nc, subject, data),
    close: () => nc.close(),
  };
}

/**
 * The test file's RpcTestClient: connected in a `beforeAll`, closed in an `afterAll` (call it at
 * the top of the file). `natsUrl` is read when the file's tests start.
 */
export function rpcTestClientForFile(natsUrl: () => string): RpcTestClient {
  let client: RpcTestClient | undefined;
  beforeAll(async () => {
    client = await rpcTestClient(natsUrl());
  });
  afterAll(async () => {
    await client?.close();
  });
  const open = (): RpcTestClient => {
    if (!client) throw new Error('the NATS test client is used before beforeAll or after afterAll');
    return client;
  };
  return {
    get nc() {
      return open().nc;
    },
    ask: (subject, data) => open().ask(subject, data),
    close: async () => client?.close(),
  };
}

/** What a stand-in for acl answers of one user (the id is added). */
export type StandInProfile = Omit<Partial<UserProfile>, 'id'>;

/**
 * A stand-in for acl's `acl.users.get-many` on `nc`, for tests that do not boot acl: each asked
 * id is answered with `profileOf(id)` as Nest's responder would (`{id, response, isDisposed}`),
 * an id it answers undefined for is left out as acl leaves out unknown users. Resolves once the
 * server has the subscription.
 */
export async function standInAclUsers(
  nc: NatsConnection,
  profileOf: (id: string) => StandInProfile | undefined,
): Promise<Subscription> {
  const subscription = nc.subscribe(AclSubjects.usersGetMany, {
    callback: (_error, message) => {
      const packet = message.json<{ id: string; data: { data: { ids: string[] } } }>();
      const response = packet.data.data.ids.flatMap((id) => {
        const profile = profileOf(id);
        return profile ? [{ id, ...profile }] : [];
      });
      message.respond(JSON.stringify({ id: packet.id, response, isDisposed: true }));
    },
  });
  await nc.flush();
  return subscription;
}

/** A stand-in profile: `<id>@example.com`, ACTIVE, named `name`. */
export const standInProfile =
  (name: string) =>
  (id: string): StandInProfile => ({ email: `${id}@example.com`, name, status: 'ACTIVE' });
