import { Inject, Injectable, Logger, type OnApplicationShutdown } from '@nestjs/common';
import {
  AckPolicy,
  DeliverPolicy,
  DiscardPolicy,
  jetstream,
  jetstreamManager,
  RetentionPolicy,
  StorageType,
  type ConsumerMessages,
  type JetStreamClient,
  type JetStreamManager,
  type JsMsg,
  type StreamConfig,
} from '@nats-io/jetstream';
import { connect, headers, type NatsConnection } from '@nats-io/transport-node';
import { EVENT_SUBJECTS, EVENTS_STREAM, type EventEnvelope } from '@media/contracts';
import type { PlatformConfig } from '../config/platform-config';
import { InjectConfig } from '../config/inject-config';
import { APP_NAME } from '../config/tokens';
import { isInProcess } from '../nats/transport';
import { clusterSpread } from '../nats/cluster-spread';
import { natsConnectionOptions } from '../nats/credentials';
import { isUuid } from '../validation/ids';
import { ConsumerProgress, type ConsumerReport } from './consumer-progress';

export type EventDelivery = (event: EventEnvelope) => Promise<void>;

export interface ConsumerStats {
  name: string;
  pending: number;
  ackPending: number;
  redelivered: number;
}

/** A message given up on, as handed to `onDeadLetter`. */
export interface DeadLetterRecord {
  consumer: string;
  subject: string;
  eventId: string | null;
  payload: string;
  error: string;
  deliveries: number;
}

export interface SubscribeOptions {
  /**
   * Names the handler: each handler gets its own durable consumer (so two handlers of one
   * subject in one app each receive every event) whose name includes this.
   */
  handler?: string;
  /** Stores a message given up on; while it throws, the message is redelivered instead. */
  onDeadLetter?: (letter: DeadLetterRecord) => Promise<void>;
}

interface InProcessHandler {
  deliver: EventDelivery;
  options: SubscribeOptions;
  maxDeliver: number;
  /** Failed deliveries per event id, so that a poison event is given up on here too. */
  failures: Map<string, number>;
}

/** Handlers of every app in this process, for the in-process bus (embedded default, no NATS). */
const inProcessHandlers = new Map<string, Map<string, InProcessHandler>>();

const NS = 1_000_000;
const ACK_WAIT_MS = 30_000;
const MAX_RETRY_DELAY_MS = 5 * 60_000;

/**
 * Pull requests: each lives `expires` ms and the server heartbeats it every `idle_heartbeat` ms
 * while it has nothing to send. Two missed heartbeats (the consumer's leader died, the request
 * with it) restart the consume loop, so delivery resumes about 2 s after a new leader exists
 * instead of after the library's 30 s expiry plus its 30 s retry.
 */
export const CONSUME_OPTIONS = { max_messages: 50, expires: 5_000, idle_heartbeat: 1_000 } as const;
/** Notifications of `consume` after which the loop starts over (re-creating the consumer if gone). */
const RESTART_ON = new Set([
  'heartbeats_missed',
  'consumer_deleted',
  'consumer_not_found',
  'stream_not_found',
]);
/** JetStream API calls of the consume loop and the monitor: short, they are retried. */
const API_TIMEOUT_MS = 2_000;
/** How long start-up waits for a consumer before going on (the loop keeps creating it). */
const STARTUP_WAIT_MS = 10_000;

/** The delay before the consume loop's attempt `attempt` (from 1): 250 ms doubling, at most 2 s. */
export function restartDelayMs(attempt: number): number {
  return Math.min(2_000, 250 * 2 ** Math.max(0, attempt - 1));
}

const errorText = (error: unknown) => (error instanceof Error ? error.message : String(error));

/** The redelivery delay after `attempt` failed deliveries: doubling from `base`, capped. */
export function retryDelayMs(attempt: number, base: number): number {
  return Math.min(MAX_RETRY_DELAY_MS, base * 2 ** Math.max(0, attempt - 1));
}

/** A JetStream durable name: letters, digits, `_` and `-` only. */
export function durableName(
  prefix: string | undefined,
  app: string,
  subject: string,
  handler?: string,
): string {
  const parts = [prefix, app, subject, handler].filter((part): part is string => !!part);
  return parts.map((part) => part.replace(/[^A-Za-z0-9_-]/g, '_')).join('--');
}

/** Why an envelope cannot be applied at all (redelivering it would not help), or undefined. */
export function envelopeProblem(value: unknown): string | undefined {
  if (typeof value !== 'object' || value === null) return 'the message is not an event envelope';
  const envelope = value as Partial<EventEnvelope>;
  if (!isUuid(envelope.id)) return `the event id ${JSON.stringify(envelope.id)} is not a uuid`;
  if (typeof envelope.subject !== 'string') return 'the event has no subject';
  return undefined;
}

/**
 * Durable events: JetStream when NATS is configured (stream EVENTS, publish de-duplicated on the
 * event id, one durable consumer per handler), else in-process delivery.
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
  /** Progress of each durable consumer of this app, for readiness and the gauges. */
  private readonly consumers = new Map<string, ConsumerProgress>();
  /** The running pull of each consumer loop, closed to restart it or at shutdown. */
  private readonly pulls = new Map<string, ConsumerMessages>();
  private readonly loops: Promise<void>[] = [];
  private monitor?: NodeJS.Timeout;
  private closing = false;
  private startupWaited = false;

  constructor(
    @InjectConfig() private readonly config: PlatformConfig,
    @Inject(APP_NAME) private readonly app: string,
  ) {}

  get inProcess(): boolean {
    return isInProcess(this.config.nats);
  }

  async publish(event: EventEnvelope): Promise<void> {
    if (this.inProcess) {
      for (const [durable, handler] of inProcessHandlers.get(event.subject) ?? []) {
        await this.deliverInProcess(durable, handler, event);
      }
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
  async subscribe(subject: string, deliver: EventDelivery, options: SubscribeOptions = {}): Promise<void> {
    const durable = durableName(this.config.events.consumerPrefix, this.app, subject, options.handler);
    if (this.inProcess) {
      const handlers = inProcessHandlers.get(subject) ?? new Map<string, InProcessHandler>();
      handlers.set(durable, {
        deliver,
        options,
        maxDeliver: this.config.events.maxDeliver,
        failures: new Map(),
      });
      inProcessHandlers.set(subject, handlers);
      this.stops.push(() => handlers.delete(durable));
      return;
    }
    const progress = new ConsumerProgress(durable, this.config.events.stallAfter);
    this.consumers.set(durable, progress);
    this.startMonitor();
    let created!: () => void;
    const isCreated = new Promise<boolean>((resolve) => (created = () => resolve(true)));
    this.loops.push(this.consume(subject, durable, deliver, options, progress, created));
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

  /**
   * One consumer's loop: creates the durable consumer (retried with backoff, logged), pulls and
   * handles its messages, and starts over when the pull stops delivering (missed heartbeats: the
   * consumer's leader is gone) or the consumer or stream was deleted, until shutdown.
   */
  private async consume(
    subject: string,
    durable: string,
    deliver: EventDelivery,
    options: SubscribeOptions,
    progress: ConsumerProgress,
    created: () => void,
  ): Promise<void> {
    let exists = false;
    let attempt = 0;
    while (!this.closing) {
      try {
        const nc = await this.nats();
        if (!exists) {
          await this.createConsumer(subject, durable);
          exists = true;
          created();
          if (attempt > 0)
            this.logger.log({ subject, consumer: durable, attempts: attempt + 1 }, 'Event consumer created');
        }
        const consumer = await jetstream(nc, { timeout: API_TIMEOUT_MS }).consumers.get(
          EVENTS_STREAM,
          durable,
        );
        const messages = await consumer.consume(CONSUME_OPTIONS);
        this.pulls.set(durable, messages);
        if (this.closing) {
          await messages.close();
          break;
        }
        if (attempt > 0) this.logger.log({ subject, consumer: durable }, 'Event consumer resumed');
        attempt = 0;
        let restartReason: string | undefined;
        void (async () => {
          for await (const status of messages.status()) {
            if (!RESTART_ON.has(status.type)) continue;
            restartReason = status.type;
            void messages.close();
            break;
          }
        })();
        for await (const message of messages) {
          await this.handle(message, subject, durable, deliver, options, progress);
        }
        if (this.closing) break;
        if (restartReason === 'consumer_deleted' || restartReason === 'consumer_not_found') exists = false;
        attempt++;
        this.logger.warn(
          { subject, consumer: durable, reason: restartReason ?? 'pull ended' },
          'Event consumer restarting',
        );
      } catch (error) {
        if (this.closing) break;
        attempt++;
        const delay = restartDelayMs(attempt);
        // Every failure at first, then every ~30 s: a long quorum loss must not flood the log.
        if (attempt <= 3 || attempt % 15 === 0) {
          this.logger.warn(
            { subject, consumer: durable, attempt, retry_in_ms: delay, err: errorText(error) },
            exists ? 'Event consumer failed; retrying' : 'Creating the event consumer failed; retrying',
          );
        }
        await new Promise((resolve) => setTimeout(resolve, delay));
      } finally {
        this.pulls.delete(durable);
      }
    }
  }

  /** Adds the durable consumer, or updates the settings this version owns when it exists. */
  private async createConsumer(subject: string, durable: string): Promise<void> {
    await this.ensureStream();
    const jsm = await jetstreamManager(await this.nats(), { timeout: API_TIMEOUT_MS });
    const consumerConfig = {
      filter_subject: subject,
      ack_wait: ACK_WAIT_MS * NS,
      // One spare delivery: the handler's last failure is dead-lettered by us, with its error;
      // the server's bound only stops a message whose every delivery crashed the process.
      max_deliver: this.config.events.maxDeliver + 1,
    };
    await jsm.consumers
      .add(EVENTS_STREAM, {
        durable_name: durable,
        ack_policy: AckPolicy.Explicit,
        deliver_policy: DeliverPolicy.All,
        ...consumerConfig,
      })
      .catch(async () => jsm.consumers.update(EVENTS_STREAM, durable, consumerConfig));
  }

  /** Applies one message: ack on success, redelivery later on failure, dead letter at the end. */
  private async handle(
    message: JsMsg,
    subject: string,
    durable: string,
    deliver: EventDelivery,
    options: SubscribeOptions,
    progress: ConsumerProgress,
  ): Promise<void> {
    const maxDeliver = this.config.events.maxDeliver;
    const deliveries = message.info.deliveryCount;
    const raw = message.string();
    let event: EventEnvelope | undefined;
    let problem: string | undefined;
    try {
      const parsed: unknown = JSON.parse(raw);
      problem = envelopeProblem(parsed);
      if (!problem) event = parsed as EventEnvelope;
    } catch {
      problem = 'the message is not JSON';
    }
    const idOf = () => {
      try {
        const id = (JSON.parse(raw) as { id?: unknown }).id;
        return typeof id === 'string' ? id : null;
      } catch {
        return null;
      }
    };
    if (!event) {
      await this.giveUp(message, options, progress, {
        consumer: durable,
        subject,
        eventId: idOf(),
        payload: raw,
        error: problem!,
        deliveries,
      });
      return;
    }
    try {
      await deliver(event);
      message.ack();
      progress.acknowledged();
    } catch (error) {
      const reason = errorText(error);
      if (deliveries >= maxDeliver) {
        await this.giveUp(message, options, progress, {
          consumer: durable,
          subject,
          eventId: event.id,
          payload: raw,
          error: reason,
          deliveries,
        });
        return;
      }
      const delay = retryDelayMs(deliveries, this.config.events.retryDelay);
      this.logger.warn(
        { subject, event_id: event.id, consumer: durable, deliveries, retry_in_ms: delay, err: reason },
        'Event handler failed; redelivering',
      );
      message.nak(delay);
    }
  }

  /**
   * In-process delivery (the outbox relay calls publish, and retries the row while it throws):
   * after EVENTS_MAX_DELIVER failures of one handler for one event, the event is dead-lettered
   * for that handler and no longer blocks the relay.
   */
  private async deliverInProcess(
    durable: string,
    handler: InProcessHandler,
    event: EventEnvelope,
  ): Promise<void> {
    try {
      await handler.deliver(event);
      handler.failures.delete(event.id);
    } catch (error) {
      const deliveries = (handler.failures.get(event.id) ?? 0) + 1;
      const reason = error instanceof Error ? error.message : String(error);
      if (deliveries < handler.maxDeliver) {
        handler.failures.set(event.id, deliveries);
        throw error;
      }
      await handler.options.onDeadLetter?.({
        consumer: durable,
        subject: event.subject,
        eventId: event.id,
        payload: JSON.stringify(event),
        error: reason,
        deliveries,
      });
      handler.failures.delete(event.id);
      this.logger.error(
        { subject: event.subject, event_id: event.id, consumer: durable, deliveries, err: reason },
        'Event dead-lettered',
      );
    }
  }

  /** Dead-letters a message; if even that fails, it is redelivered later instead of lost. */
  private async giveUp(
    message: { term(reason?: string): void; nak(delay?: number): void },
    options: SubscribeOptions,
    progress: ConsumerProgress,
    letter: DeadLetterRecord,
  ): Promise<void> {
    try {
      await options.onDeadLetter?.(letter);
    } catch (error) {
      this.logger.error(
        {
          subject: letter.subject,
          consumer: letter.consumer,
          err: error instanceof Error ? error.message : String(error),
        },
        'Could not store a dead letter; redelivering',
      );
      message.nak(retryDelayMs(letter.deliveries, this.config.events.retryDelay));
      return;
    }
    this.logger.error(
      {
        subject: letter.subject,
        event_id: letter.eventId,
        consumer: letter.consumer,
        deliveries: letter.deliveries,
        err: letter.error,
      },
      'Event dead-lettered',
    );
    // Without a reason: nats-server before 2.10 ignores `+TERM <reason>` and redelivers the
    // message after ack_wait (the error is in the dead letter and the log line above anyway).
    message.term();
    progress.acknowledged();
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
      void this.connection.then((nc) => spread.attach(nc)).catch(() => undefined);
    }
    return this.connection;
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
   */
  private async createOrUpdateStream(): Promise<void> {
    const jsm = await jetstreamManager(await this.nats());
    const limits: Partial<StreamConfig> = {
      max_age: this.config.events.maxAge * NS,
      max_bytes: this.config.events.maxBytes,
      duplicate_window: this.config.events.duplicateWindow * NS,
      discard: DiscardPolicy.Old,
    };
    const existing = await this.streamSubjects(jsm);
    if (existing === undefined) {
      try {
        await jsm.streams.add({
          name: EVENTS_STREAM,
          subjects: [...EVENT_SUBJECTS],
          retention: RetentionPolicy.Limits,
          storage: StorageType.File,
          num_replicas: this.config.events.replicas,
          ...limits,
        });
        return;
      } catch {
        // Another app created it meanwhile: update it as below.
      }
    }
    const current = (await this.streamSubjects(jsm)) ?? [];
    const subjects = [...new Set([...current, ...EVENT_SUBJECTS])];
    await jsm.streams.update(EVENTS_STREAM, {
      subjects,
      num_replicas: this.config.events.replicas,
      ...limits,
    });
  }

  private async streamSubjects(jsm: JetStreamManager): Promise<string[] | undefined> {
    try {
      return (await jsm.streams.info(EVENTS_STREAM)).config.subjects ?? [];
    } catch {
      return undefined;
    }
  }

  /**
   * Lag of each durable consumer of this app as last read by the monitor (empty for the
   * in-process bus, and for a consumer the server has not answered about yet): scrapes never
   * wait on JetStream.
   */
  consumerStats(): ConsumerStats[] {
    return [...this.consumers.values()].flatMap((progress) => {
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
    return [...this.consumers.values()].map((progress) => progress.report());
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
    let jsm: JetStreamManager;
    try {
      jsm = await jetstreamManager(await this.nats(), { timeout: API_TIMEOUT_MS });
    } catch (error) {
      for (const progress of this.consumers.values()) progress.unreadable(errorText(error));
      return;
    }
    await Promise.all(
      [...this.consumers.values()].map(async (progress) => {
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
    await Promise.all([...this.pulls.values()].map((messages) => messages.close().catch(() => undefined)));
    if (this.connection) await (await this.connection.catch(() => undefined))?.drain().catch(() => undefined);
  }
}
