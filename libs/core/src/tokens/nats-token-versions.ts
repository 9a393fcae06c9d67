import type { ConnectionOptions, NatsConnection } from '@nats-io/transport-node';
import {
  AclEvents,
  AclSubjects,
  type TokenVersionsReply,
  type UserTokensRevokedEvent,
} from '@media/contracts';
import { revokedEventData, type TokenVersionSource } from './token-version-feed';

/** nats.js's `connect`, handed in by the caller (this entry loads no NATS package itself). */
export type NatsConnect = (options: ConnectionOptions) => Promise<NatsConnection>;

/**
 * A TokenVersionSource over a NATS connection of its own: a plain subscription to
 * `acl.user.tokens-revoked` (each replica of each app hears every event; JetStream's copy is
 * for the durable consumers) and a plain JSON request to `acl.users.token-versions`. After a
 * reconnect the feed asks again for what it may have missed.
 */
export function natsTokenVersionSource(
  connect: NatsConnect,
  options: Partial<ConnectionOptions>,
  requestTimeoutMs = 2_000,
): TokenVersionSource {
  let connection: Promise<NatsConnection> | undefined;
  const nats = () =>
    (connection ??= connect({
      ...options,
      maxReconnectAttempts: -1,
      reconnectTimeWait: 1_000,
      waitOnFirstConnect: true,
    }));
  return {
    async listen(onRevoked: (event: UserTokensRevokedEvent) => void, onResumed: () => void) {
      const nc = await nats();
      nc.subscribe(AclEvents.userTokensRevoked, {
        callback: (error, msg) => {
          if (error) return;
          let parsed: unknown;
          try {
            parsed = msg.json();
          } catch {
            return;
          }
          const event = revokedEventData(parsed);
          if (event) onRevoked(event);
        },
      });
      void (async () => {
        for await (const status of nc.status()) if (status.type === 'reconnect') onResumed();
      })().catch(() => undefined);
    },
    async ask(since: string | undefined): Promise<TokenVersionsReply> {
      const nc = await nats();
      const msg = await nc.request(AclSubjects.usersTokenVersions, JSON.stringify(since ? { since } : {}), {
        timeout: requestTimeoutMs,
      });
      const reply = msg.json<TokenVersionsReply & { error?: unknown }>();
      if (reply.error !== undefined || !Array.isArray(reply.versions))
        throw new Error(`acl refused ${AclSubjects.usersTokenVersions}`);
      return reply;
    },
    async close() {
      if (!connection) return;
      const nc = await connection.catch(() => undefined);
      await nc?.drain().catch(() => undefined);
    },
  };
}
