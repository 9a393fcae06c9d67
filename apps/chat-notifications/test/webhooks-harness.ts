/**
 * Webhooks tests: chat-notifications booted in-process (as many replicas as a test asks) or from
 * dist as processes (to kill one), on a fresh database and a private nats-server, and receivers:
 * real HTTP servers on this machine that record every delivery and answer as the test says.
 */
import { randomBytes, randomUUID } from 'node:crypto';
import { once } from 'node:events';
import { createServer, type IncomingHttpHeaders, type Server } from 'node:http';
import type { AddressInfo } from 'node:net';
import type { INestApplication } from '@nestjs/common';
import { jetstream } from '@nats-io/jetstream';
import { connect, type NatsConnection } from '@nats-io/transport-node';
import { createApp } from '@media/platform';
import {
  call,
  createDatabases,
  databaseUrl,
  dropDatabases,
  freePort,
  generateTestKeys,
  mintToken,
  queryDatabase,
  spawnDist,
  standInAclUsers,
  standInProfile,
  startJwks,
  startNats,
  waitReady,
  type ApiResponse,
  type DistProcess,
  type PrivateNats,
} from '@media/testing';
import { chatNotificationsApp } from '../src/app.definition';

/** One request a receiver got. */
export interface Received {
  headers: IncomingHttpHeaders;
  body: string;
  at: number;
}

/** What a receiver answers: a status and body, or nothing at all (held until the sender gives up). */
export type Answer = { status: number; body?: string } | 'hang';

/** An HTTP server recording deliveries; `answer` decides each reply (200 by default). */
export class Receiver {
  readonly received: Received[] = [];
  answer: (request: Received, index: number) => Answer | Promise<Answer> = () => ({
    status: 200,
    body: 'ok',
  });
  private server!: Server;
  url = '';

  async start(path = '/hook'): Promise<this> {
    this.server = createServer((req, res) => {
      const chunks: Buffer[] = [];
      req.on('data', (c: Buffer) => chunks.push(c));
      req.on('end', () => {
        const request = { headers: req.headers, body: Buffer.concat(chunks).toString(), at: Date.now() };
        this.received.push(request);
        void Promise.resolve(this.answer(request, this.received.length - 1)).then((answer) => {
          if (answer === 'hang') return;
          res.writeHead(answer.status, { 'content-type': 'text/plain' }).end(answer.body ?? '');
        });
      });
    });
    this.server.listen(0, '127.0.0.1');
    await once(this.server, 'listening');
    this.url = `http://127.0.0.1:${(this.server.address() as AddressInfo).port}${path}`;
    return this;
  }

  ids(): string[] {
    return this.received.map((r) => String(r.headers['webhook-id']));
  }

  async stop(): Promise<void> {
    if (!this.server) return;
    this.server.closeAllConnections();
    await new Promise<void>((resolve) => this.server.close(() => resolve()));
  }
}

export const ADMIN = ['webhooks:admin'];

export class WebhooksHarness {
  readonly keys = generateTestKeys();
  readonly database = `e2e_${Date.now()}_${randomBytes(3).toString('hex')}_webhooks_int`;
  readonly secretsKey = randomBytes(32).toString('hex');
  private nats!: PrivateNats;
  private nc!: NatsConnection;
  private jwks!: { url: string; close: () => void };
  readonly apps: { app: INestApplication; base: string }[] = [];
  readonly processes: { process: DistProcess; base: string }[] = [];
  private readonly secret = randomBytes(32).toString('hex');

  constructor(private readonly env: Record<string, string> = {}) {}

  async start(): Promise<void> {
    this.nats = await startNats();
    this.jwks = await startJwks(this.keys);
    await createDatabases([this.database]);
    this.nc = await connect({ servers: this.nats.url });
  }

  /**
   * A fake acl answering who holds `webhooks:admin` (and, for the inbox, their profiles): the
   * ids given. acl itself is not booted by these tests.
   */
  async fakeAclAdmins(ids: string[]): Promise<void> {
    this.nc.subscribe('acl.users.holding', {
      callback: (_error, message) => {
        const packet = message.json<{ id: string }>();
        message.respond(JSON.stringify({ id: packet.id, response: { user_ids: ids }, isDisposed: true }));
      },
    });
    await standInAclUsers(this.nc, standInProfile('Admin'));
  }

  /** The environment of a replica (the test's overrides last). */
  replicaEnv(port: number, extra: Record<string, string> = {}): Record<string, string> {
    return {
      PORT: String(port),
      DATABASE_URL: databaseUrl(this.database),
      NATS_URL: this.nats.url,
      CURSOR_SECRET: this.secret,
      JWT_JWKS_URL: this.jwks.url,
      LOG_LEVEL: 'silent',
      NATS_REQUEST_TIMEOUT: '2s',
      WEBHOOK_SECRETS_KEY: this.secretsKey,
      WEBHOOKS_ALLOW_HTTP: 'true',
      WEBHOOKS_ALLOW_PRIVATE: 'true',
      ...this.env,
      ...extra,
    };
  }

  /** One more in-process replica on the same database and NATS. */
  async boot(extra: Record<string, string> = {}): Promise<INestApplication> {
    const port = await freePort();
    const app = await createApp(chatNotificationsApp, this.replicaEnv(port, extra), { host: '127.0.0.1' });
    this.apps.push({ app, base: `http://127.0.0.1:${port}` });
    return app;
  }

  /** One more replica as its own process from dist (so a test can kill it). */
  async spawn(extra: Record<string, string> = {}): Promise<DistProcess> {
    const port = await freePort();
    const process = spawnDist(
      'chat-notifications',
      this.replicaEnv(port, { CHAT_NOTIFICATIONS_PORT: String(port), ...extra }),
    );
    const base = `http://127.0.0.1:${port}`;
    await waitReady(`${base}/api/health/ready`, process, 60_000);
    this.processes.push({ process, base });
    return process;
  }

  async stop(): Promise<void> {
    for (const { app } of this.apps.splice(0)) await app.close();
    for (const { process } of this.processes.splice(0)) await process.stop();
    await this.nc?.close();
    this.jwks?.close();
    await this.nats?.stop();
    await dropDatabases([this.database]);
  }

  base(): string {
    return (this.apps[0] ?? this.processes[0]).base;
  }

  /** A request to the first replica, with `webhooks:admin` unless told otherwise. */
  api<T = any>(
    path: string,
    init: { method?: string; json?: unknown; permissions?: string[] } = {},
  ): Promise<ApiResponse<T>> {
    return call<T>(this.base(), `/api/v1/webhooks${path}`, {
      method: init.method,
      json: init.json,
      token: mintToken(this.keys, { permissions: init.permissions ?? ADMIN }),
    });
  }

  /** Adds an endpoint and answers its view with the secret. */
  async endpoint(url: string, eventTypes: string[] = ['*']): Promise<{ id: string; secret: string }> {
    const res = await this.api<{ data: { id: string; secret: string } }>('/endpoints', {
      method: 'POST',
      json: { url, event_types: eventTypes },
    });
    if (res.status !== 201) throw new Error(`endpoint: ${res.status} ${res.text}`);
    return res.body.data;
  }

  /** Publishes a durable event as its owning app's outbox relay would; answers its id. */
  async publish(subject: string, data: unknown, id: string = randomUUID()): Promise<string> {
    const envelope = {
      id,
      subject,
      occurred_at: new Date().toISOString(),
      data,
      meta: { request_id: `test-${id}` },
    };
    await jetstream(this.nc).publish(subject, JSON.stringify(envelope), { msgID: id });
    return id;
  }

  query<R extends Record<string, unknown>>(sql: string, params: unknown[] = []): Promise<R[]> {
    return queryDatabase<R>(databaseUrl(this.database), sql, params);
  }
}
