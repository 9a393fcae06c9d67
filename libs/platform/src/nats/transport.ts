import {
  Transport,
  type ClientProxy,
  type MicroserviceOptions,
  ClientProxyFactory,
} from '@nestjs/microservices';
import type { PlatformConfig } from '../config/platform-config';
import { natsConnectionOptions, type NatsSecurity } from './credentials';
import { InProcessClient, InProcessServer } from './in-process';

export const NATS_CLIENT = Symbol('NATS_CLIENT');

export function isInProcess(config: Pick<PlatformConfig, 'NATS_URL'>): boolean {
  return config.NATS_URL === 'inproc';
}

/** Servers, credentials and TLS of the app's NATS configuration. */
function connection(config: Pick<PlatformConfig, 'NATS_URL'> & NatsSecurity) {
  return natsConnectionOptions(config.NATS_URL, config);
}

/** Reconnect forever: after a long outage a listener must come back, not stay unsubscribed. */
const RECONNECT = { maxReconnectAttempts: -1, reconnectTimeWait: 1_000, waitOnFirstConnect: true } as const;

/** The client an app uses to call other apps. */
export function createBusClient(
  app: string,
  config: Pick<PlatformConfig, 'NATS_URL'> & NatsSecurity,
): ClientProxy {
  if (isInProcess(config)) return new InProcessClient();
  return ClientProxyFactory.create({
    transport: Transport.NATS,
    options: { ...connection(config), name: `${app}-client`, ...RECONNECT },
  });
}

/**
 * The app's listener: one queue group per app, so replicas share requests instead of each
 * answering; graceful shutdown drains in-flight handlers.
 */
export function busListenerOptions(
  app: string,
  config: Pick<PlatformConfig, 'NATS_URL'> & NatsSecurity,
): MicroserviceOptions {
  if (isInProcess(config)) return { strategy: new InProcessServer(app) };
  return {
    transport: Transport.NATS,
    // After unsubscribing, in-flight handlers get as long as a caller waits for them (2 s deadline).
    options: {
      ...connection(config),
      queue: app,
      name: `${app}-listener`,
      gracefulShutdown: true,
      gracePeriod: 2_000,
      ...RECONNECT,
    },
  };
}
