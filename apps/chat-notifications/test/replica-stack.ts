/**
 * chat-notifications replicas on a NATS server the test stops and starts again (an outage), a
 * database of their own, and a stand-in for acl's `acl.users.get-many` answering for the users
 * the test makes (room creation checks members with acl). Tokens are minted with the e2e
 * stack's key, so the replicas verify them as the main stack's do.
 */
import { randomBytes, randomUUID } from 'node:crypto';
import { mkdtempSync, rmSync } from 'node:fs';
import { tmpdir } from 'node:os';
import { join } from 'node:path';
import { connect, type NatsConnection } from '@nats-io/transport-node';
import {
  call,
  createDatabases,
  databaseUrl,
  dropDatabases,
  eventually,
  freePort,
  mintToken,
  queryDatabase,
  spawnDist,
  standInAclUsers,
  standInProfile,
  startNats,
  waitReady,
  type DistProcess,
  type PrivateNats,
} from '@media/testing';
import { connectWs, system, type Client } from './support';

export interface StackUser {
  id: string;
  token: string;
}

export interface Replica {
  url: string;
  process: DistProcess;
}

export interface ReplicaStack {
  /** Starts a chat-notifications process (the first one runs the migrations); resolves once ready. */
  boot(env?: Record<string, string>): Promise<Replica>;
  /** A user acl's stand-in knows, with a token. */
  user(): StackUser;
  /** Creates a GROUP room of `owner` and `members` on `replica`; answers its id. */
  room(replica: Replica, owner: StackUser, members: StackUser[]): Promise<string>;
  /** Posts a message on `replica`; answers the message as the API returned it. */
  post(replica: Replica, room: string, sender: StackUser, body: string): Promise<Record<string, unknown>>;
  /** A websocket of `who` straight to `replica`, `?resume=<seq>` when given. */
  socket(replica: Replica, who: StackUser, resume?: number | string): Promise<Client>;
  /** One query on the replicas' database. */
  query(sql: string, params?: unknown[]): Promise<Record<string, any>[]>;
  natsDown(): Promise<void>;
  natsUp(): Promise<void>;
  stop(): Promise<void>;
}

export async function startReplicaStack(name: string): Promise<ReplicaStack> {
  const port = await freePort();
  const store = mkdtempSync(join(tmpdir(), 'chat-outage-nats-'));
  let nats: PrivateNats | undefined = await startNats({ port, storeDir: store });
  const natsUrl = nats.url;
  const known = new Set<string>();
  const nc: NatsConnection = await connect({
    servers: natsUrl,
    maxReconnectAttempts: -1,
    reconnectTimeWait: 250,
  });
  await standInAclUsers(nc, (id) => (known.has(id) ? standInProfile('Chat Tester')(id) : undefined));

  const dbName = `e2e_chat_${name}_${randomBytes(4).toString('hex')}`;
  await createDatabases([dbName]);
  const dbUrl = databaseUrl(dbName);
  const processes: DistProcess[] = [];
  const replicas: Replica[] = [];
  const sockets: Client[] = [];
  const group = randomUUID();

  return {
    async boot(env = {}) {
      const appPort = await freePort();
      const replica = spawnDist('chat-notifications', {
        ...system().env,
        DATABASE_URL: dbUrl,
        NATS_URL: natsUrl,
        CHAT_NOTIFICATIONS_PORT: String(appPort),
        ...env,
      });
      processes.push(replica);
      const url = `http://127.0.0.1:${appPort}`;
      await waitReady(`${url}/api/health/ready`, replica, 90_000);
      replicas.push({ url, process: replica });
      return { url, process: replica };
    },
    user() {
      const id = randomUUID();
      known.add(id);
      return {
        id,
        token: mintToken(system().keys, { sub: id, email: `${id}@example.com`, groups: [group] }),
      };
    },
    async room(replica, owner, members) {
      const res = await call(replica.url, '/api/v1/chat/rooms', {
        token: owner.token,
        json: { name: 'Outage room', group_id: group, member_ids: members.map((m) => m.id) },
      });
      if (res.status !== 201) throw new Error(`room create failed: ${res.status} ${res.text}`);
      return (res.body as { data: { id: string } }).data.id;
    },
    async post(replica, room, sender, body) {
      const res = await call(replica.url, `/api/v1/chat/rooms/${room}/messages`, {
        token: sender.token,
        json: { body },
      });
      if (res.status !== 201) throw new Error(`post failed: ${res.status} ${res.text}`);
      return (res.body as { data: Record<string, unknown> }).data;
    },
    async socket(replica, who, resume) {
      const client = await connectWs({ base: replica.url, token: who.token, resume });
      sockets.push(client);
      return client;
    },
    query: (sql, params = []) => queryDatabase(dbUrl, sql, params),
    async natsDown() {
      await nats?.stop();
      nats = undefined;
    },
    async natsUp() {
      nats ??= await startNats({ port, storeDir: store });
      // Back once the acl stand-in and every running replica are connected again.
      await eventually(
        () =>
          nc.flush().then(
            () => true,
            () => false,
          ),
        (ok) => ok,
        30_000,
      );
      for (const replica of replicas.filter((r) => r.process.child.exitCode === null)) {
        await eventually(
          () =>
            call(replica.url, '/api/health/ready').then(
              (res) => res.status,
              () => 0,
            ),
          (status) => status === 200,
          60_000,
        );
      }
    },
    async stop() {
      await Promise.all(sockets.map((s) => s.close().catch(() => undefined)));
      await Promise.all(processes.map((p) => p.stop()));
      await nc.close();
      await nats?.stop();
      rmSync(store, { recursive: true, force: true });
      await dropDatabases([dbName]);
    },
  };
}
