import { readFileSync } from 'node:fs';
import { credsAuthenticator, type ConnectionOptions } from '@nats-io/transport-node';
import type { PlatformConfig } from '../config/platform-config';

/** The NATS variables that say how to authenticate and encrypt. */
export type NatsSecurity = Partial<
  Pick<PlatformConfig, 'NATS_CREDS_FILE' | 'NATS_TLS_CA_FILE' | 'NATS_TLS_CERT_FILE' | 'NATS_TLS_KEY_FILE'>
>;

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
 */
export function natsConnectionOptions(
  natsUrl: string,
  security: NatsSecurity = {},
): Partial<ConnectionOptions> {
  const servers = parseNatsUrl(natsUrl);
  const options: Partial<ConnectionOptions> = { servers: servers.map((s) => s.server) };
  const withCredentials = servers.find((s) => s.user !== undefined);
  if (withCredentials?.pass !== undefined) {
    options.user = withCredentials.user;
    options.pass = withCredentials.pass;
  } else if (withCredentials?.user !== undefined) {
    options.token = withCredentials.user;
  }
  if (security.NATS_CREDS_FILE) {
    const file = security.NATS_CREDS_FILE;
    // Read at each (re)connect, so a rotated creds file is picked up without a restart.
    options.authenticator = credsAuthenticator(() => readFileSync(file));
  }
  const tlsWanted =
    servers.some((s) => s.tls) ||
    !!security.NATS_TLS_CA_FILE ||
    !!security.NATS_TLS_CERT_FILE ||
    !!security.NATS_TLS_KEY_FILE;
  if (tlsWanted) {
    options.tls = {
      ...(security.NATS_TLS_CA_FILE ? { caFile: security.NATS_TLS_CA_FILE } : {}),
      ...(security.NATS_TLS_CERT_FILE ? { certFile: security.NATS_TLS_CERT_FILE } : {}),
      ...(security.NATS_TLS_KEY_FILE ? { keyFile: security.NATS_TLS_KEY_FILE } : {}),
    };
  }
  return options;
}
