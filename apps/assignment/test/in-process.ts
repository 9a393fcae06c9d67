/**
 * assignment booted in-process (integration tests) on its own fresh database, against a private
 * nats-server started for the test, so nothing else answers its requests (acl is whatever the
 * test puts there) and its events go nowhere else.
 */
import { randomBytes, randomUUID } from 'node:crypto';
import type { INestApplication } from '@nestjs/common';
import { connect, type NatsConnection, type Subscription } from '@nats-io/transport-node';
import type { UserProfile } from '@media/contracts';
import { createApp } from '@media/platform';
import {
  createDatabases,
  databaseUrl,
  dropDatabases,
  freePort,
  generateTestKeys,
  mintToken,
  startJwks,
} from '@media/testing';
import { assignmentApp } from '../src/app.definition';
import { startNats, type PrivateNats } from './private-nats';

export interface Instance {
  app: INestApplication;
  base: string;
}

/** Shared parts of one test file: database, NATS, keys; `boot` starts replicas of assignment on them. */
export class Harness {
  readonly keys = generateTestKeys();
  readonly database = `e2e_${Date.now()}_${randomBytes(3).toString('hex')}_assignment_int`;
  nats!: PrivateNats;
  private jwks!: { url: string; close: () => void };
  private readonly instances: Instance[] = [];
  private readonly secret = randomBytes(32).toString('hex');

  get db(): string {
    return databaseUrl(this.database);
  }

  async start(): Promise<void> {
    this.nats = await startNats();
    this.jwks = await startJwks(this.keys);
    await createDatabases([this.database]);
  }

  async boot(env: Record<string, string> = {}): Promise<Instance> {
    const port = await freePort();
    const app = await createApp(
      assignmentApp,
      {
        PORT: String(port),
        DATABASE_URL: this.db,
        NATS_URL: this.nats.url,
        CURSOR_SECRET: this.secret,
        JWT_JWKS_URL: this.jwks.url,
        LOG_LEVEL: 'silent',
        NATS_REQUEST_TIMEOUT: '1s',
        // The scheduled pass stays out of the way unless a test asks for it.
        ESCALATION_CHECK_INTERVAL: '1h',
        ...env,
      },
      { host: '127.0.0.1' },
    );
    const instance = { app, base: `http://127.0.0.1:${port}/assignment` };
    this.instances.push(instance);
    return instance;
  }

  async stop(): Promise<void> {
    for (const { app } of this.instances.splice(0)) await app.close();
    this.jwks?.close();
    await this.nats?.stop();
    await dropDatabases([this.database]);
  }

  token(sub: string, permissions: string[]): string {
    return mintToken(this.keys, { sub, permissions });
  }
}

/** A stand-in for acl's `acl.users.get-many` responder on the private NATS, that a test can stop. */
export class FakeAcl {
  private nc?: NatsConnection;
  private sub?: Subscription;
  readonly users = new Map<string, UserProfile>();

  constructor(private readonly natsUrl: string) {}

  addUser(permissions: string[], groups: string[] = []): UserProfile {
    const id = randomUUID();
    const profile: UserProfile = {
      id,
      name: `User ${id.slice(0, 4)}`,
      email: `${id.slice(0, 8)}@example.com`,
      first_name: 'User',
      last_name: id.slice(0, 4),
      employee_number: null,
      manager_id: null,
      status: 'ACTIVE',
      roles: [],
      permissions,
      groups,
    };
    this.users.set(id, profile);
    return profile;
  }

  async start(): Promise<void> {
    this.nc = await connect({ servers: this.natsUrl });
    this.sub = this.nc.subscribe('acl.users.get-many', {
      queue: 'acl',
      callback: (_error, message) => {
        const packet = message.json<{ id: string; data: { data: { ids: string[] } } }>();
        const response = packet.data.data.ids.flatMap((id) => this.users.get(id) ?? []);
        message.respond(JSON.stringify({ id: packet.id, response, isDisposed: true }));
      },
    });
    await this.nc.flush();
  }

  async stop(): Promise<void> {
    this.sub?.unsubscribe();
    await this.nc?.close();
    this.nc = undefined;
  }
}
