import { readFileSync } from 'node:fs';
import { credsAuthenticator, type ConnectionOptions } from '@nats-io/transport-node';
import type { NatsConfig } from '@media/core';

/** How to authenticate and encrypt (NATS_CREDS_FILE, NATS_TLS_*). */
export type NatsSecurity = Partial<Pick<NatsConfig, 'credsFile' | 'tls'>>;

/** One server of NATS_URL with its credentials taken out. */
export interface NatsServer {
  server: string;
  user?: string;
  pass?: string;
  tls: boolean;
}

/** Splits `nats://user:pass@host:4222,tls://host2:4222` into servers and credentials. */
export function parseNatsUrl(natsUrl: string): NatsServer[] {
  return natsUrl
    .split(',')
    .map((part) => part.trim())
    .filter(Boolean)
    .map((part) => {
      const url = new URL(part);
      const tls = url.protocol === 'tls:';
      const user = url.username ? decodeURIComponent(url.username) : undefined;
      const pass = url.password ? decodeURIComponent(url.password) : undefined;
      // URL keeps the brackets of an IPv6 hostname.
      return { server: `${url.hostname}:${url.port || 4222}`, user, pass, tls };
    });
}

/**
 * The connection options of NATS_URL and the NATS_* security variables: servers without their
 * credentials; `user:pass@` (or a lone token as `token@`) from the URL; a `.creds` file (JWT +
 * nkey) from NATS_CREDS_FILE; TLS when a URL says `tls://` or a CA/cert file is given.
 * No async stack traces: the client would otherwise make two errors with stacks ahead of every
 * request and JetStream publish in case it failed (43 µs a published audit entry, measured in
 * bench/audit-write.mjs); a failure still names its subject and cause.
 */
export function natsConnectionOptions(
  natsUrl: string,
  security: NatsSecurity = {},
): Partial<ConnectionOptions> {
  const servers = parseNatsUrl(natsUrl);
  const options: Partial<ConnectionOptions> = { servers: servers.map((s) => s.server), noAsyncTraces: true };
  const withCredentials = servers.find((s) => s.user !== undefined);
  if (withCredentials?.pass !== undefined) {
    options.user = withCredentials.user;
    options.pass = withCredentials.pass;
  } else if (withCredentials?.user !== undefined) {
    options.token = withCredentials.user;
  }
  if (security.credsFile) {
    const file = security.credsFile;
    // Read at each (re)connect, so a rotated creds file is picked up without a restart.
    options.authenticator = credsAuthenticator(() => readFileSync(file));
  }
  const { caFile, certFile, keyFile } = security.tls ?? {};
  if (servers.some((s) => s.tls) || caFile || certFile || keyFile) {
    options.tls = {
      ...(caFile ? { caFile } : {}),
      ...(certFile ? { certFile } : {}),
      ...(keyFile ? { keyFile } : {}),
    };
  }
  return options;
}
