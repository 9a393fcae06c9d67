import {
  Transport,
  type ClientProxy,
  type MicroserviceOptions,
  ClientProxyFactory,
  ServerNats,
} from '@nestjs/microservices';
import type { NatsConfig } from '@media/core';
import { clusterSpread } from './cluster-spread';
import { natsConnectionOptions } from './credentials';
import { InProcessClient, InProcessServer } from './in-process';
import { BusDeserializer, BusSerializer } from './plain-json';

export const NATS_CLIENT = Symbol('NATS_CLIENT');

type NatsConnection = Pick<NatsConfig, 'url' | 'credsFile' | 'tls'>;

export function isInProcess(nats: Pick<NatsConfig, 'url'>): boolean {
  return nats.url === 'inproc';
}

/** Servers, credentials and TLS of the app's NATS configuration. */
function connection(nats: NatsConnection) {
  return natsConnectionOptions(nats.url, nats);
}

/** Reconnect forever: after a long outage a listener must come back, not stay unsubscribed. */
const RECONNECT = { maxReconnectAttempts: -1, reconnectTimeWait: 1_000, waitOnFirstConnect: true } as const;

/** The client an app uses to call other apps. */
export function createBusClient(app: string, nats: NatsConnection): ClientProxy {
  if (isInProcess(nats)) return new InProcessClient();
  return ClientProxyFactory.create({
    transport: Transport.NATS,
    options: {
      ...connection(nats),
      name: `${app}-client`,
      ...RECONNECT,
      reconnectToServer: clusterSpread(`${app}-client`).reconnectToServer,
    },
  });
}

/**
 * Nest's NATS server, with each subscription's route worked out once. For every message Nest
 * finds the handler by passing the subscribed subject through `JSON.parse` (a pattern may be an
 * object) and catching the SyntaxError a plain subject throws: an error with its stack trace,
 * about 50 µs of every request (docs/benchmarks.md, "acl.users.get-many"). The subjects are the
 * app's own patterns, a fixed set, so the routes are kept.
 */
export class BusServer extends ServerNats {
  private readonly routes = new Map<string, string>();

  protected override getRouteFromPattern(pattern: string): string {
    let route = this.routes.get(pattern);
    if (route === undefined) {
      route = super.getRouteFromPattern(pattern);
      this.routes.set(pattern, route);
    }
    return route;
  }
}

/**
 * The app's listener: one queue group per app, so replicas share requests instead of each
 * answering; graceful shutdown drains in-flight handlers.
 */
export function busListenerOptions(app: string, nats: NatsConnection): MicroserviceOptions {
  if (isInProcess(nats)) return { strategy: new InProcessServer(app) };
  return {
    strategy: new BusServer({
      ...connection(nats),
      queue: app,
      name: `${app}-listener`,
      // After unsubscribing, in-flight handlers get as long as a caller waits for them (2 s deadline).
      gracefulShutdown: true,
      gracePeriod: 2_000,
      ...RECONNECT,
      reconnectToServer: clusterSpread(`${app}-listener`).reconnectToServer,
      // Nest's framing from the apps, plain JSON from any other client (docs/nats.md).
      deserializer: new BusDeserializer(),
      serializer: new BusSerializer(),
    }),
  };
}
