import { Inject, Injectable, Logger, type OnApplicationShutdown } from '@nestjs/common';
import {
  AckPolicy,
  DeliverPolicy,
  jetstream,
  jetstreamManager,
  type JetStreamClient,
} from '@nats-io/jetstream';
import { connect, headers, type NatsConnection } from '@nats-io/transport-node';
import { EVENT_SUBJECTS, EVENTS_STREAM, type EventEnvelope } from '@media/contracts';
import type { PlatformConfig } from '../config/platform-config';
import { PLATFORM_CONFIG } from '../config/tokens';
import { APP_NAME } from '../auth/jwt.strategy';
import { isInProcess } from '../nats/transport';

export type EventDelivery = (event: EventEnvelope) => Promise<void>;

export interface ConsumerStats {
  name: string;
  pending: number;
  ackPending: number;
  redelivered: number;
}

/** Handlers of every app in this process, for the in-process bus (embedded default, no NATS). */
const inProcessHandlers = new Map<string, Map<string, EventDelivery>>();

const ACK_WAIT_NS = 30_000_000_000;
/** Events are kept a week: enough for an app that was down to catch up, bounded on disk. */
const MAX_AGE_NS = 7 * 24 * 3600 * 1_000_000_000;

/**
 * Durable events: JetStream when NATS is configured (stream EVENTS, publish de-duplicated on the
 * event id, one durable consumer per app and subject), else in-process delivery.
 */
@Injectable()
export class EventBus implements OnApplicationShutdown {
  private readonly logger = new Logger('EventBus');
  private connection?: Promise<NatsConnection>;
  private stream?: Promise<JetStreamClient>;
  private readonly stops: (() => void)[] = [];
  /** The durable consumers this app subscribed, for the lag gauges. */
  private readonly durables = new Set<string>();

  constructor(
    @Inject(PLATFORM_CONFIG) private readonly config: PlatformConfig,
    @Inject(APP_NAME) private readonly app: string,
  ) {}

  get inProcess(): boolean {
    return isInProcess(this.config);
  }

  async publish(event: EventEnvelope): Promise<void> {
    if (this.inProcess) {
      for (const deliver of inProcessHandlers.get(event.subject)?.values() ?? []) await deliver(event);
      return;
    }
    const js = await this.jetStream();
    const carried = headers();
    if (event.meta.traceparent) carried.set('traceparent', event.meta.traceparent);
    await js.publish(event.subject, JSON.stringify(event), {
      msgID: event.id,
      timeout: 2_000,
      headers: carried,
    });
  }

  /** Delivers every event of `subject` to `deliver` until shutdown; failures are redelivered. */
  async subscribe(subject: string, deliver: EventDelivery): Promise<void> {
    const durable = `${this.app}--${subject.replace(/\./g, '_')}`;
    if (this.inProcess) {
      const handlers = inProcessHandlers.get(subject) ?? new Map<string, EventDelivery>();
      handlers.set(durable, deliver);
      inProcessHandlers.set(subject, handlers);
      this.stops.push(() => handlers.delete(durable));
      return;
    }
    const nc = await this.nats();
    const jsm = await jetstreamManager(nc);
    await this.ensureStream();
    await jsm.consumers
      .add(EVENTS_STREAM, {
        durable_name: durable,
        filter_subject: subject,
        ack_policy: AckPolicy.Explicit,
        deliver_policy: DeliverPolicy.All,
        ack_wait: ACK_WAIT_NS,
        max_deliver: -1,
      })
      .catch(async () => jsm.consumers.info(EVENTS_STREAM, durable));
    this.durables.add(durable);
    const consumer = await jetstream(nc).consumers.get(EVENTS_STREAM, durable);
    const messages = await consumer.consume({ max_messages: 50 });
    this.stops.push(() => void messages.close());
    void (async () => {
      for await (const message of messages) {
        try {
          await deliver(message.json<EventEnvelope>());
          message.ack();
        } catch (error) {
          this.logger.warn(
            { subject, err: error instanceof Error ? error.message : String(error) },
            'Event handler failed; redelivering',
          );
          message.nak(2_000);
        }
      }
    })();
  }

  private nats(): Promise<NatsConnection> {
    this.connection ??= connect({
      servers: this.config.NATS_URL.split(','),
      name: `${this.app}-events`,
      maxReconnectAttempts: -1,
      reconnectTimeWait: 1_000,
      waitOnFirstConnect: true,
    });
    return this.connection;
  }

  private async jetStream(): Promise<JetStreamClient> {
    this.stream ??= this.ensureStream().then(async () => jetstream(await this.nats()));
    return this.stream.catch((error: unknown) => {
      this.stream = undefined;
      throw error;
    });
  }

  /** Creates or updates the stream; apps starting together may race, so both paths are tried. */
  private async ensureStream(): Promise<void> {
    const jsm = await jetstreamManager(await this.nats());
    const subjects = [...EVENT_SUBJECTS];
    try {
      await jsm.streams.add({ name: EVENTS_STREAM, subjects, max_age: MAX_AGE_NS });
    } catch {
      await jsm.streams.update(EVENTS_STREAM, { subjects, max_age: MAX_AGE_NS });
    }
  }

  /** Lag of each durable consumer of this app (empty for the in-process bus). */
  async consumerStats(): Promise<ConsumerStats[]> {
    if (this.inProcess || this.durables.size === 0) return [];
    const jsm = await jetstreamManager(await this.nats());
    return Promise.all(
      [...this.durables].map(async (name) => {
        const info = await jsm.consumers.info(EVENTS_STREAM, name);
        return {
          name,
          pending: info.num_pending,
          ackPending: info.num_ack_pending,
          redelivered: info.num_redelivered,
        };
      }),
    );
  }

  async onApplicationShutdown(): Promise<void> {
    for (const stop of this.stops.splice(0)) stop();
    if (this.connection) await (await this.connection.catch(() => undefined))?.drain().catch(() => undefined);
  }
}
