/**
 * Helpers for chat-notifications' e2e tests: the stack booted by the global setup, reached
 * through the gateway as a client would; users made in acl's database (chat asks acl about
 * them over NATS); events published to JetStream as their owners would; a documents responder
 * standing in for the documents app when it does not answer on this branch.
 */
import { randomUUID } from 'node:crypto';
import { once } from 'node:events';
import type { IncomingMessage } from 'node:http';
import { jetstream } from '@nats-io/jetstream';
import { connect, type NatsConnection, type Subscription } from '@nats-io/transport-node';
import {
  appDatabase,
  askNats,
  call,
  e2eStack,
  freePort,
  mintToken,
  queryDatabase,
  spawnDist,
  waitReady,
  type ApiRequest,
  type ApiResponse,
  type MintOptions,
  type DistProcess,
  type NestReply,
} from '@media/testing';
import WebSocket from 'ws';

/** The stack booted by the global setup. */
export const system = e2eStack;

export function gateway(): string {
  return system().gatewayUrl;
}

/** A request to a chat-notifications path (`/api/v1/...`) through the gateway. */
export function api<T = any>(path: string, request: ApiRequest = {}): Promise<ApiResponse<T>> {
  return call<T>(gateway(), path, request);
}

/** One query on chat-notifications's own database. */
export const chatDb = appDatabase('chat-notifications');

export interface TestUser {
  id: string;
  email: string;
  token: string;
  /** A fresh token with other claims (groups, expiry...). */
  mint(options?: MintOptions): string;
}

/**
 * Users inserted straight into acl's database (fast enough for rooms of 500), each with a
 * token minted by the stack's key; `groups` go in the token, as acl would put them.
 */
export async function users(
  n: number,
  options: { status?: string; groups?: string[] } = {},
): Promise<TestUser[]> {
  const rows = Array.from({ length: n }, () => ({
    id: randomUUID(),
    email: `chat-${randomUUID()}@example.com`,
  }));
  await queryDatabase(
    system().databases.acl,
    `INSERT INTO users (id, email, first_name, last_name, status)
     SELECT id, email, 'Chat', 'Tester', $3 FROM unnest($1::uuid[], $2::text[]) AS x (id, email)`,
    [rows.map((r) => r.id), rows.map((r) => r.email), options.status ?? 'ACTIVE'],
  );
  return rows.map((r) => {
    const mint = (extra: MintOptions = {}) =>
      mintToken(system().keys, { sub: r.id, email: r.email, groups: options.groups ?? [], ...extra });
    return { ...r, token: mint(), mint };
  });
}

export async function user(options: { groups?: string[]; status?: string } = {}): Promise<TestUser> {
  return (await users(1, options))[0];
}

/** A group id as acl issues them (a uuid), and users in it. */
export function groupId(): string {
  return randomUUID();
}

/** Creates a GROUP room through the API (JSON) and returns its `data`. */
export async function createRoom(
  owner: TestUser,
  group: string,
  memberIds: string[] = [],
  name = 'Newsroom',
): Promise<Record<string, any>> {
  const res = await api('/api/v1/chat/rooms', {
    token: owner.mint({ groups: [group] }),
    json: { name, group_id: group, member_ids: memberIds },
  });
  if (res.status !== 201) throw new Error(`room create failed: ${res.status} ${res.text}`);
  return res.body.data;
}

export async function post(room: string, sender: TestUser, body = 'hello'): Promise<Record<string, any>> {
  const res = await api(`/api/v1/chat/rooms/${room}/messages`, { token: sender.token, json: { body } });
  if (res.status !== 201) throw new Error(`post failed: ${res.status} ${res.text}`);
  return res.body.data;
}

let nc: NatsConnection | undefined;

export async function nats(): Promise<NatsConnection> {
  nc ??= await connect({ servers: system().env.NATS_URL });
  return nc;
}

export async function closeNats(): Promise<void> {
  await nc?.drain();
  nc = undefined;
}

/** Publishes a durable event as its owning app's outbox relay would. */
export async function publishEvent(
  subject: string,
  data: unknown,
  id: string = randomUUID(),
): Promise<string> {
  const envelope = {
    id,
    subject,
    occurred_at: new Date().toISOString(),
    data,
    meta: { request_id: `test-${id}` },
  };
  // A fresh msgID, so publishing one event id twice gets past JetStream's de-duplication and
  // reaches the consumer twice, as a redelivery would.
  await jetstream(await nats()).publish(subject, JSON.stringify(envelope), { msgID: randomUUID() });
  return id;
}

/** Starts another chat-notifications replica on the stack's database and NATS. */
export async function startReplica(
  extraEnv: Record<string, string> = {},
): Promise<{ url: string; stop(): Promise<void>; process: DistProcess }> {
  const port = await freePort();
  const env = {
    ...system().env,
    DATABASE_URL: system().databases['chat-notifications'],
    CHAT_NOTIFICATIONS_PORT: String(port),
    ...extraEnv,
  };
  const replica = spawnDist('chat-notifications', env);
  const url = `http://127.0.0.1:${port}`;
  await waitReady(`${url}/api/health/ready`, replica, 60_000);
  return { url, stop: replica.stop, process: replica };
}

/** A NATS request as another app's Nest client sends it; returns Nest's reply packet. */
export async function ask<T = any>(subject: string, data: unknown): Promise<NestReply<T>> {
  return askNats<T>(await nats(), subject, data, { timeout: 5000, requestIdPrefix: 'test' });
}

/**
 * Documents that `documents.documents.get` knows. When the documents app answers on this
 * branch, documents are uploaded through it; otherwise this process answers for it.
 */
export class Documents {
  private readonly known = new Map<string, string>();
  private subscription?: Subscription;

  async start(): Promise<void> {
    const real = await ask('documents.documents.get', { id: randomUUID() }).then(
      (reply) => reply.err === undefined,
      () => false,
    );
    if (real) return;
    const connection = await nats();
    this.subscription = connection.subscribe('documents.documents.get', {
      callback: (_error, message) => {
        const packet = message.json<{ id: string; data: { data: { id: string } } }>();
        const id = packet.data.data.id;
        const uploader = this.known.get(id);
        const response = uploader
          ? {
              id,
              filename: 'a.pdf',
              content_type: 'application/pdf',
              size: 1,
              sha256: '0'.repeat(64),
              uploaded_by: uploader,
              created_at: new Date().toISOString(),
            }
          : null;
        message.respond(JSON.stringify({ id: packet.id, response, isDisposed: true }));
      },
    });
  }

  async create(uploader: TestUser): Promise<string> {
    if (!this.subscription) {
      const form = new FormData();
      form.append('file', new Blob(['%PDF-1.4 test']), 'a.pdf');
      const res = await call(gateway(), '/documents/api/v1/documents', {
        token: uploader.mint({ permissions: ['documents:write'] }),
        multipart: form,
      });
      if (res.status !== 201) throw new Error(`upload failed: ${res.status} ${res.text}`);
      return res.body.id as string;
    }
    const id = randomUUID();
    this.known.set(id, uploader.id);
    return id;
  }

  stop(): void {
    this.subscription?.unsubscribe();
  }
}

// ------------------------------------------------------------------ websockets

/** A frame as a client receives it. */
export interface Frame {
  event: string;
  data: any;
  seq: number;
}

export interface Client {
  socket: WebSocket;
  frames: Frame[];
  /** Resolves with the first frame (already received or to come) matching `match`. */
  next(match: (frame: Frame) => boolean, timeoutMs?: number): Promise<Frame>;
  close(): Promise<void>;
}

/**
 * Opens a websocket (through the gateway unless `base` is given) and collects its frames;
 * `resume` asks for the frames after that seq.
 */
export async function connectWs(
  options: { token?: string; ticket?: string; base?: string; resume?: number | string } = {},
): Promise<Client> {
  const base = (options.base ?? gateway()).replace(/^http/, 'ws');
  const query = new URLSearchParams();
  if (options.ticket) query.set('ticket', options.ticket);
  if (options.resume !== undefined) query.set('resume', String(options.resume));
  const url = `${base}/api/v1/ws${query.size > 0 ? `?${query}` : ''}`;
  const socket = new WebSocket(url, {
    headers: options.token ? { authorization: `Bearer ${options.token}` } : {},
  });
  const frames: Frame[] = [];
  const waiters: { match: (f: Frame) => boolean; resolve: (f: Frame) => void }[] = [];
  socket.on('message', (raw: Buffer) => {
    const frame = JSON.parse(raw.toString()) as Frame;
    frames.push(frame);
    for (const w of [...waiters]) {
      if (w.match(frame)) {
        waiters.splice(waiters.indexOf(w), 1);
        w.resolve(frame);
      }
    }
  });
  await once(socket, 'open');
  return {
    socket,
    frames,
    next(match, timeoutMs = 5000) {
      const found = frames.find(match);
      if (found) return Promise.resolve(found);
      return new Promise((resolve, reject) => {
        const timer = setTimeout(() => reject(new Error('no matching frame')), timeoutMs);
        waiters.push({
          match,
          resolve: (f) => {
            clearTimeout(timer);
            resolve(f);
          },
        });
      });
    },
    async close() {
      if (socket.readyState === WebSocket.CLOSED) return;
      socket.close();
      await once(socket, 'close');
    },
  };
}

/** The HTTP answer to a refused upgrade. */
export async function refusedUpgrade(
  options: { token?: string; ticket?: string; base?: string; query?: string } = {},
): Promise<{ status: number; body: any }> {
  const base = (options.base ?? gateway()).replace(/^http/, 'ws');
  const query = options.query ?? (options.ticket ? `?ticket=${encodeURIComponent(options.ticket)}` : '');
  const socket = new WebSocket(`${base}/api/v1/ws${query}`, {
    headers: options.token ? { authorization: `Bearer ${options.token}` } : {},
  });
  socket.on('error', () => undefined);
  const [, res] = (await once(socket, 'unexpected-response')) as [unknown, IncomingMessage];
  const chunks: Buffer[] = [];
  for await (const chunk of res) chunks.push(chunk as Buffer);
  socket.terminate();
  const text = Buffer.concat(chunks).toString();
  let body: unknown = text;
  try {
    body = JSON.parse(text);
  } catch {
    /* not JSON */
  }
  return { status: res.statusCode ?? 0, body };
}
