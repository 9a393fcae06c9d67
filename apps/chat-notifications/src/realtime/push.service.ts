import { Injectable, Logger, type OnApplicationShutdown, type OnModuleInit } from '@nestjs/common';
import { connect, type NatsConnection } from '@nats-io/transport-node';
import { CHAT_PUSH_SUBJECT, type PushEnvelope, type PushEventName } from '@media/contracts';
import { InjectConfig, isInProcess, natsConnectionOptions, type PlatformConfig } from '@media/platform';
import type { WebSocket } from 'ws';

const OPEN = 1;

/**
 * Live pushes. Sockets are registered per user on the replica they reached; a push is published
 * on core NATS (CHAT_PUSH_SUBJECT, no queue group), so every other replica hears it and writes it
 * to its own sockets of the named users, and to no one else's. The publishing replica writes to
 * its own sockets straight away: its connection is `noEcho`, so it never hears its own pushes,
 * and a message's fan-out on the replica that took the POST costs no NATS round trip and no
 * second decoding of the envelope (1,000 user ids for a room of 1,000).
 */
@Injectable()
export class PushService implements OnModuleInit, OnApplicationShutdown {
  private readonly logger = new Logger('Push');
  private readonly sockets = new Map<string, Set<WebSocket>>();
  private connection?: NatsConnection;

  constructor(@InjectConfig() private readonly config: PlatformConfig) {}

  async onModuleInit(): Promise<void> {
    if (isInProcess(this.config.nats)) return;
    this.connection = await connect({
      ...natsConnectionOptions(this.config.nats.url, this.config.nats),
      name: 'chat-notifications-push',
      maxReconnectAttempts: -1,
      reconnectTimeWait: 1_000,
      waitOnFirstConnect: true,
      noEcho: true,
    });
    this.connection.subscribe(CHAT_PUSH_SUBJECT, {
      callback: (error, message) => {
        if (error) return;
        try {
          this.deliverLocally(message.json<PushEnvelope>());
        } catch (failure) {
          this.logger.warn({ err: String(failure) }, 'Malformed push dropped');
        }
      },
    });
  }

  /** Sends `event` to every socket of `userIds`, on whichever replica they are connected. */
  push<T>(userIds: string[], event: PushEventName, data: T): void {
    if (userIds.length === 0) return;
    const envelope: PushEnvelope<T> = { user_ids: userIds, event, data };
    this.connection?.publish(CHAT_PUSH_SUBJECT, JSON.stringify(envelope));
    // After the caller's answer is written (its microtasks run first); in push order.
    setImmediate(() => this.deliverLocally(envelope));
  }

  register(userId: string, socket: WebSocket): void {
    const set = this.sockets.get(userId) ?? new Set<WebSocket>();
    set.add(socket);
    this.sockets.set(userId, set);
  }

  unregister(userId: string, socket: WebSocket): void {
    const set = this.sockets.get(userId);
    if (!set) return;
    set.delete(socket);
    if (set.size === 0) this.sockets.delete(userId);
  }

  /** Sockets open on this replica (health and tests). */
  get localConnections(): number {
    let n = 0;
    for (const set of this.sockets.values()) n += set.size;
    return n;
  }

  private deliverLocally(envelope: PushEnvelope): void {
    let frame: Buffer | undefined;
    for (const userId of envelope.user_ids) {
      const sockets = this.sockets.get(userId);
      if (!sockets) continue;
      // Serialised and encoded once, only when a recipient is here; sent as a text frame.
      frame ??= Buffer.from(JSON.stringify({ event: envelope.event, data: envelope.data }));
      for (const socket of sockets) {
        if (socket.readyState === OPEN) socket.send(frame, { binary: false });
      }
    }
  }

  async onApplicationShutdown(): Promise<void> {
    await this.connection?.drain().catch(() => undefined);
  }
}
