import { Inject, Injectable, Logger, type OnApplicationShutdown } from '@nestjs/common';
import {
  DiscardPolicy,
  jetstream,
  jetstreamManager,
  JetStreamApiCodes,
  JetStreamApiError,
  RetentionPolicy,
  StorageType,
  type JetStreamClient,
  type JetStreamManager,
  type StreamConfig,
} from '@nats-io/jetstream';
import { connect, headers, type NatsConnection } from '@nats-io/transport-node';
import { EVENT_SUBJECTS, EVENTS_STREAM, type EventEnvelope } from '@media/contracts';
import type { PlatformConfig } from '@media/core';
import { InjectConfig, APP_NAME } from '@media/kernel';
import { isInProcess } from '../nats/transport';
import { clusterSpread, type ClusterSpread } from '../nats/cluster-spread';
import { natsConnectionOptions } from '../nats/credentials';
import type { ConsumerReport } from './consumer-progress';
import { API_TIMEOUT_MS, CLUSTER_UNAVAILABLE, EventConsumer, type ConsumerHost } from './event-consumer';
import { durableName, errorText, NS, type EventDelivery, type SubscribeOptions } from './event-delivery';
import { publishInProcess, subscribeInProcess } from './in-process-events';

export interface ConsumerStats {
  name: string;
  pending: number;
  ackPending: number;
  redelivered: number;
}

/** JetStream's advisories, e.g. `$JS.EVENT.ADVISORY.STREAM.LEADER_ELECTED.<stream>`. */
const ADVISORY = '$JS.EVENT.ADVISORY';

/** How long start-up waits for a consumer before going on (the loop keeps creating it). */
const STARTUP_WAIT_MS = 10_000;

/**
 * Durable events: JetStream when NATS is configured (stream EVENTS, publish de-duplicated on the
 * event id, one durable consumer per handler: see `EventConsumer`), else in-process delivery.
 *
 * A failing handler is retried with a doubling delay; after EVENTS_MAX_DELIVER deliveries, or at
 * once for a malformed message (not JSON, id not a uuid), the message is handed to
 * `onDeadLetter` (the `dead_letters` table), logged at error level and terminated, so a poison
 * message cannot loop for ever.
 */
@Injectable()
export class EventBus implements OnApplicationShutdown {
  private readonly logger = new Logger('EventBus');
  private connection?: Promise<NatsConnection>;
  private stream?: Promise<JetStreamClient>;
  private streamReady?: Promise<void>;
  private readonly stops: (() => void)[] = [];
  /** Each durable consumer of this app, for readiness, the gauges and shutdown. */
  private readonly consumers = new Map<string, EventConsumer>();
  private monitor?: NodeJS.Timeout;
  private closing = false;
  private startupWaited = false;
  /** What the consumers use of this bus. */
  private readonly host: ConsumerHost = {
    nats: () => this.nats(),
    ensureStream: () => this.ensureStream(),
    closing: () => this.closing,
  };

  constructor(
    @InjectConfig() private readonly config: PlatformConfig,
    @Inject(APP_NAME) private readonly app: string,
  ) {}

  get inProcess(): boolean {
    return isInProcess(this.config.nats);
  }

  async publish(event: EventEnvelope): Promise<void> {
    if (this.inProcess) return publishInProcess(event, this.logger);
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
  async subscribe(subject: string, deliver: EventDelivery, options: SubscribeOptions = {}): Promise<void> {
    const events = this.config.events;
    const durable = durableName(events.consumerPrefix, this.app, subject, options.handler);
    if (this.inProcess) {
      this.stops.push(subscribeInProcess(subject, durable, deliver, options, events.maxDeliver));
      return;
    }
    const consumer = new EventConsumer(subject, durable, deliver, options, events, this.host);
    this.consumers.set(durable, consumer);
    this.startMonitor();
    const isCreated = consumer.start();
    // Start-up waits a while for the consumer (once JetStream kept one waiting, not for the next
    // ones); past that the loop keeps creating it in the background.
    const wait = this.startupWaited ? 0 : STARTUP_WAIT_MS;
    const timer = new Promise<boolean>((resolve) => setTimeout(() => resolve(false), wait).unref());
    if (!(await Promise.race([isCreated, timer]))) {
      this.startupWaited = true;
      this.logger.warn(
        { subject, consumer: durable },
        'Event consumer not created yet; start-up goes on while it is retried',
      );
    }
  }

  /** The bus's NATS connection (JetStream mode only), shared with the audit publisher. */
  natsConnection(): Promise<NatsConnection> {
    return this.nats();
  }

  private nats(): Promise<NatsConnection> {
    if (!this.connection) {
      const spread = clusterSpread(`${this.app}-events`);
      this.connection = connect({
        ...natsConnectionOptions(this.config.nats.url, this.config.nats),
        name: `${this.app}-events`,
        maxReconnectAttempts: -1,
        reconnectTimeWait: 1_000,
        waitOnFirstConnect: true,
        reconnectToServer: spread.reconnectToServer,
      });
      void this.connection
        .then((nc) => {
          spread.attach(nc);
          void this.followConnection(nc, spread);
          this.followLeaders(nc);
        })
        .catch(() => undefined);
    }
    return this.connection;
  }

  /**
   * When the events connection comes back on another node (its node died, or a planned move),
   * the pull requests it had are gone with the old server: every consumer starts its pull over at
   * once, with its own fast retry until the consumer's (possibly new) leader answers, instead of
   * waiting for the library to notice. Logged, so that path is as visible as a leader's loss.
   */
  private async followConnection(nc: NatsConnection, spread: ClusterSpread): Promise<void> {
    const connection = `${this.app}-events`;
    for await (const status of nc.status()) {
      if (this.closing) return;
      if (status.type === 'disconnect') {
        // A planned move (to a node that rejoined) is routine; a lost server is not.
        if (spread.moving)
          this.logger.log({ connection, server: status.server }, 'NATS events connection moving');
        else
          this.logger.warn(
            { connection, server: status.server },
            'NATS events connection lost; reconnecting',
          );
      } else if (status.type === 'reconnect') {
        this.logger.log(
          { connection, server: status.server, consumers: this.consumers.size },
          'NATS events connection back; restarting the consumers’ pulls',
        );
        for (const consumer of this.consumers.values()) consumer.restart('connection moved');
      }
    }
  }

  /**
   * Wakes the consumers waiting to retry when the cluster elects a leader for one of them (that
   * one) or for the stream (all of them): after quorum returns, each comes back as soon as the
   * cluster can serve it instead of at its next retry, and no faster polling is needed for that.
   * The advisories need subscribe permission on their two subjects; without it the consumers
   * keep their own retry cadence (said once in the log).
   */
  private followLeaders(nc: NatsConnection): void {
    let refused = false;
    const follow = (subject: string, wake: (subject: string) => void) =>
      nc.subscribe(subject, {
        callback: (error, message) => {
          if (!error) return wake(message.subject);
          if (refused || this.closing) return;
          refused = true;
          this.logger.warn(
            { subject, err: errorText(error) },
            'Leader elections not heard; consumers retry on their own cadence',
          );
        },
      });
    follow(`${ADVISORY}.CONSUMER.LEADER_ELECTED.${EVENTS_STREAM}.*`, (subject) =>
      this.consumers.get(subject.slice(subject.lastIndexOf('.') + 1))?.wake(),
    );
    follow(`${ADVISORY}.STREAM.LEADER_ELECTED.${EVENTS_STREAM}`, () => {
      for (const consumer of this.consumers.values()) consumer.wake();
    });
  }

  private async jetStream(): Promise<JetStreamClient> {
    this.stream ??= this.ensureStream().then(async () => jetstream(await this.nats()));
    return this.stream.catch((error: unknown) => {
      this.stream = undefined;
      throw error;
    });
  }

  private ensureStream(): Promise<void> {
    this.streamReady ??= this.createOrUpdateStream().catch((error: unknown) => {
      this.streamReady = undefined;
      throw error;
    });
    return this.streamReady;
  }

  /**
   * Creates the stream, or updates it with the union of its subjects and ours: during a rolling
   * deploy an older version must not remove the subjects a newer one added. Limits are explicit.
   * A stream that has them all already is left alone: an update is one more proposal to the
   * cluster, answered only once the stream has a leader, and every start would wait on it.
   */
  private async createOrUpdateStream(): Promise<void> {
    // No API check first: that is one more request, answered by the meta leader only.
    const jsm = await jetstreamManager(await this.nats(), { timeout: API_TIMEOUT_MS, checkAPI: false });
    const limits = {
      max_age: this.config.events.maxAge * NS,
      max_bytes: this.config.events.maxBytes,
      duplicate_window: this.config.events.duplicateWindow * NS,
      discard: DiscardPolicy.Old,
      num_replicas: this.config.events.replicas,
    } satisfies Partial<StreamConfig>;
    let current = await this.streamConfig(jsm);
    if (!current) {
      try {
        await jsm.streams.add({
          name: EVENTS_STREAM,
          subjects: [...EVENT_SUBJECTS],
          retention: RetentionPolicy.Limits,
          storage: StorageType.File,
          ...limits,
        });
        return;
      } catch (error) {
        // Refused because another app created it meanwhile: update it as below. No answer, or
        // no leader to give one, is retried by the caller.
        if (!(error instanceof JetStreamApiError) || error.code === CLUSTER_UNAVAILABLE) throw error;
        current = await this.streamConfig(jsm);
        if (!current) throw error;
      }
    }
    const subjects = [...new Set([...(current.subjects ?? []), ...EVENT_SUBJECTS])];
    const unchanged =
      subjects.length === (current.subjects ?? []).length &&
      (Object.keys(limits) as (keyof typeof limits)[]).every((key) => current[key] === limits[key]);
    if (!unchanged) await jsm.streams.update(EVENTS_STREAM, { subjects, ...limits });
  }

  /** The stream's settings, or undefined when the server says it does not exist. */
  private async streamConfig(jsm: JetStreamManager): Promise<StreamConfig | undefined> {
    try {
      return (await jsm.streams.info(EVENTS_STREAM)).config;
    } catch (error) {
      if (error instanceof JetStreamApiError && error.code === JetStreamApiCodes.StreamNotFound)
        return undefined;
      throw error;
    }
  }

  /**
   * Lag of each durable consumer of this app as last read by the monitor (empty for the
   * in-process bus, and for a consumer the server has not answered about yet): scrapes never
   * wait on JetStream.
   */
  consumerStats(): ConsumerStats[] {
    return [...this.consumers.values()].flatMap(({ progress }) => {
      const known = progress.snapshot;
      return known
        ? [
            {
              name: progress.name,
              pending: known.pending,
              ackPending: known.ackPending,
              redelivered: known.redelivered,
            },
          ]
        : [];
    });
  }

  /** Each durable consumer's progress: whether it has events pending and makes none. */
  consumerReports(): ConsumerReport[] {
    return [...this.consumers.values()].map(({ progress }) => progress.report());
  }

  /** Reads every consumer's info every few seconds (at most one round at a time). */
  private startMonitor(): void {
    if (this.monitor) return;
    const every = Math.min(5_000, Math.max(500, this.config.events.stallAfter / 4));
    let running = false;
    this.monitor = setInterval(() => {
      if (running) return;
      running = true;
      void this.observeConsumers().finally(() => (running = false));
    }, every);
    this.monitor.unref();
  }

  private async observeConsumers(): Promise<void> {
    const progresses = () => [...this.consumers.values()].map(({ progress }) => progress);
    let jsm: JetStreamManager;
    try {
      jsm = await jetstreamManager(await this.nats(), { timeout: API_TIMEOUT_MS, checkAPI: false });
    } catch (error) {
      for (const progress of progresses()) progress.unreadable(errorText(error));
      return;
    }
    await Promise.all(
      progresses().map(async (progress) => {
        try {
          const info = await jsm.consumers.info(EVENTS_STREAM, progress.name);
          progress.observed({
            pending: info.num_pending,
            ackPending: info.num_ack_pending,
            redelivered: info.num_redelivered,
            ackFloor: info.ack_floor.stream_seq,
          });
        } catch (error) {
          progress.unreadable(errorText(error));
        }
      }),
    );
  }

  async onApplicationShutdown(): Promise<void> {
    this.closing = true;
    clearInterval(this.monitor);
    for (const stop of this.stops.splice(0)) stop();
    await Promise.all([...this.consumers.values()].map((consumer) => consumer.close()));
    if (this.connection) await (await this.connection.catch(() => undefined))?.drain().catch(() => undefined);
  }
}
