import { connect } from '@nats-io/transport-node';
import { natsTokenVersionSource, processTokenVersions, TokenVersionFeed, TokenVersions } from '@media/core';
import type { GatewayConfig } from '../config';
import type { GatewayLogger } from '../logger';

/** The gateway's view of revoked tokens, and how to stop keeping it current. */
export interface GatewayRevocations {
  versions: TokenVersions | undefined;
  stop(): Promise<void>;
}

/**
 * What the gateway knows of revoked tokens (docs/api/acl.md, revocation): over NATS, its own
 * feed of acl's events and answers (the only NATS the gateway uses: a plain subscription and a
 * request, no JetStream); in the embedded default's one process, the store the apps keep.
 * Without `NATS_URL` the gateway does not check versions (every app still does).
 */
export function gatewayRevocations(config: GatewayConfig, log: GatewayLogger): GatewayRevocations {
  const lifetime = config.auth.accessTtl + config.auth.clockSkew;
  const url = config.nats.url;
  if (url === undefined) {
    log.warn('NATS_URL is not set: the gateway leaves revoked tokens to the apps');
    return { versions: undefined, stop: async () => undefined };
  }
  if (url === 'inproc') return { versions: processTokenVersions(lifetime), stop: async () => undefined };
  const versions = new TokenVersions(Date.now(), lifetime);
  let warned = false;
  const feed = new TokenVersionFeed(
    versions,
    natsTokenVersionSource(connect, { ...natsOptions(url), name: 'gateway-token-versions' }),
    {
      lookbackMs: lifetime,
      onError: (error) => {
        if (warned) return;
        warned = true;
        log.warn(
          { err: error instanceof Error ? error.message : String(error) },
          'token versions not read from acl yet; retrying',
        );
      },
    },
  );
  feed.start().catch((error: unknown) => log.warn({ err: String(error) }, 'token version feed not started'));
  return { versions, stop: () => feed.stop() };
}

/** `nats://user:pass@host:4222,tls://host2:4222` as nats.js takes it: servers, then credentials apart. */
export function natsOptions(url: string): {
  servers: string[];
  user?: string;
  pass?: string;
  tls?: Record<string, never>;
} {
  const parts = url.split(',').map((part) => new URL(part.trim()));
  const withUser = parts.find((part) => part.username !== '');
  return {
    // URL keeps the brackets of an IPv6 hostname.
    servers: parts.map((part) => `${part.hostname}:${part.port || 4222}`),
    ...(withUser
      ? { user: decodeURIComponent(withUser.username), pass: decodeURIComponent(withUser.password) }
      : {}),
    ...(parts.some((part) => part.protocol === 'tls:') ? { tls: {} } : {}),
  };
}
