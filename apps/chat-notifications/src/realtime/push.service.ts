import { Injectable, Logger, type OnApplicationShutdown, type OnModuleInit } from '@nestjs/common';
import { connect, type NatsConnection } from '@nats-io/transport-node';
import { CHAT_PUSH_SUBJECT, type PushEnvelope, type PushEventName } from '@media/contracts';
import { InjectConfig, isInProcess, natsConnectionOptions, type PlatformConfig } from '@media/platform';
import type { WebSocket } from 'ws';

const OPEN = 1;

/**
 * Live pushes. Sockets are registered per user on the replica they reached; a push is published
 * on core NATS (CHAT_PUSH_SUBJECT, no queue group), so every replica hears it and writes it to
 * its own sockets of the named users, and to no one else's.
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
    if (!this.connection) return this.deliverLocally(envelope);
    this.connection.publish(CHAT_PUSH_SUBJECT, JSON.stringify(envelope));
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
    // Serialised once, written to every recipient socket.
    const frame = JSON.stringify({ event: envelope.event, data: envelope.data });
    for (const userId of envelope.user_ids) {
      for (const socket of this.sockets.get(userId) ?? []) {
        if (socket.readyState === OPEN) socket.send(frame);
      }
    }
  }

  async onApplicationShutdown(): Promise<void> {
    await this.connection?.drain().catch(() => undefined);
  }
}
