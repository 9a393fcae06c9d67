import { Logger } from '@nestjs/common';
import {
  AckPolicy,
  DeliverPolicy,
  jetstream,
  jetstreamManager,
  type ConsumerMessages,
  type JsMsg,
} from '@nats-io/jetstream';
import type { NatsConnection } from '@nats-io/transport-node';
import { EVENTS_STREAM, type EventEnvelope } from '@media/contracts';
import type { EventsConfig } from '@media/core';
import { ConsumerProgress } from './consumer-progress';
import {
  envelopeProblem,
  errorText,
  NS,
  restartDelayMs,
  retryDelayMs,
  type DeadLetterRecord,
  type EventDelivery,
  type SubscribeOptions,
} from './event-delivery';

const ACK_WAIT_MS = 30_000;

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
export const API_TIMEOUT_MS = 2_000;

/** What a consumer needs of the bus: its connection, the stream, and whether it shuts down. */
export interface ConsumerHost {
  nats(): Promise<NatsConnection>;
  ensureStream(): Promise<void>;
  closing(): boolean;
}

/**
 * One durable JetStream consumer of one handler: creates it (retried with backoff, logged),
 * pulls and handles its messages (ack, redelivery with a doubling delay, dead letter at the
 * end), and records its progress for readiness and the gauges.
 */
export class EventConsumer {
  private readonly logger = new Logger('EventBus');
  readonly progress: ConsumerProgress;
  /** The running pull, closed to restart the loop or at shutdown. */
  private pull?: ConsumerMessages;
  /** Why the running pull was closed to restart the loop (logged with the restart). */
  private restartReason?: string;

  constructor(
    private readonly subject: string,
    readonly durable: string,
    private readonly deliver: EventDelivery,
    private readonly options: SubscribeOptions,
    private readonly config: EventsConfig,
    private readonly host: ConsumerHost,
  ) {
    this.progress = new ConsumerProgress(durable, config.stallAfter);
  }

  /** Starts the loop; the promise resolves once the durable consumer exists. */
  start(): Promise<boolean> {
    let created!: () => void;
    const isCreated = new Promise<boolean>((resolve) => (created = () => resolve(true)));
    void this.consume(created);
    return isCreated;
  }

  /**
   * Starts the pull over now (the loop's fast retry until the consumer answers): the bus calls it
   * when its connection came back on another node, where the old pull request does not exist.
   */
  restart(reason: string): void {
    const pull = this.pull;
    if (!pull || this.restartReason) return;
    this.restartReason = reason;
    void pull.close().catch(() => undefined);
  }

  /** Ends the running pull (the loop sees the host closing and stops). */
  async close(): Promise<void> {
    await this.pull?.close().catch(() => undefined);
  }

  /**
   * The loop: creates the durable consumer, pulls and handles its messages, and starts over when
   * the pull stops delivering (missed heartbeats: the consumer's leader is gone) or the consumer
   * or stream was deleted, until shutdown.
   */
  private async consume(created: () => void): Promise<void> {
    const { subject, durable } = this;
    let exists = false;
    let attempt = 0;
    while (!this.host.closing()) {
      try {
        const nc = await this.host.nats();
        if (!exists) {
          await this.createConsumer();
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
        this.pull = messages;
        if (this.host.closing()) {
          await messages.close();
          break;
        }
        this.progress.resumed();
        if (attempt > 0) this.logger.log({ subject, consumer: durable }, 'Event consumer resumed');
        attempt = 0;
        this.restartReason = undefined;
        void (async () => {
          for await (const status of messages.status()) {
            if (!RESTART_ON.has(status.type)) continue;
            this.restartReason ??= status.type;
            void messages.close();
            break;
          }
        })();
        if (this.options.deliverMany) await this.handleInBatches(messages);
        else for await (const message of messages) await this.handle(message);
        if (this.host.closing()) break;
        const restartReason = this.restartReason;
        if (restartReason === 'consumer_deleted' || restartReason === 'consumer_not_found') exists = false;
        attempt++;
        this.logger.warn(
          { subject, consumer: durable, reason: restartReason ?? 'pull ended' },
          'Event consumer restarting',
        );
      } catch (error) {
        if (this.host.closing()) break;
        attempt++;
        // Jittered down (never later than the plain backoff): after quorum returns every consumer
        // of every app retries at once, and the JetStream API answers such a burst with
        // 'temporarily unavailable'.
        const delay = Math.round(restartDelayMs(attempt) * (0.5 + Math.random() / 2));
        // Every failure at first, then every ~30 s: a long quorum loss must not flood the log.
        if (attempt <= 3 || attempt % 15 === 0) {
          this.logger.warn(
            { subject, consumer: durable, attempt, retry_in_ms: delay, err: errorText(error) },
            exists ? 'Event consumer failed; retrying' : 'Creating the event consumer failed; retrying',
          );
        }
        await new Promise((resolve) => setTimeout(resolve, delay));
      } finally {
        this.pull = undefined;
      }
    }
  }

  /** Adds the durable consumer, or updates the settings this version owns when it exists. */
  private async createConsumer(): Promise<void> {
    await this.host.ensureStream();
    const jsm = await jetstreamManager(await this.host.nats(), { timeout: API_TIMEOUT_MS });
    const consumerConfig = {
      filter_subject: this.subject,
      ack_wait: ACK_WAIT_MS * NS,
      // One spare delivery: the handler's last failure is dead-lettered by us, with its error;
      // the server's bound only stops a message whose every delivery crashed the process.
      max_deliver: this.config.maxDeliver + 1,
    };
    await jsm.consumers
      .add(EVENTS_STREAM, {
        durable_name: this.durable,
        ack_policy: AckPolicy.Explicit,
        deliver_policy: DeliverPolicy.All,
        ...consumerConfig,
      })
      .catch(async () => jsm.consumers.update(EVENTS_STREAM, this.durable, consumerConfig));
  }

  /**
   * Group commit: the first message is applied at once, those that arrive meanwhile wait and are
   * applied together next (at most CONSUME_OPTIONS.max_messages at a time), so a burst costs one
   * transaction per batch and a lone event waits for nothing. The pull waits while a full batch
   * is queued, so no more than about two batches are held unacknowledged.
   */
  private async handleInBatches(messages: ConsumerMessages): Promise<void> {
    const queue: JsMsg[] = [];
    let draining: Promise<void> | undefined;
    const drain = async () => {
      while (queue.length > 0) await this.handleBatch(queue.splice(0, CONSUME_OPTIONS.max_messages));
    };
    for await (const message of messages) {
      queue.push(message);
      draining ??= drain().finally(() => (draining = undefined));
      if (queue.length >= CONSUME_OPTIONS.max_messages) await draining;
    }
    await draining;
  }

  /** Applies messages together; any that cannot be read, or a failing batch, go one at a time. */
  private async handleBatch(batch: JsMsg[]): Promise<void> {
    const readable: { message: JsMsg; event: EventEnvelope }[] = [];
    for (const message of batch) {
      const event = this.read(message);
      if (event) readable.push({ message, event });
      else await this.handle(message);
    }
    if (readable.length === 0) return;
    if (readable.length > 1) {
      try {
        await this.options.deliverMany!(readable.map((r) => r.event));
        for (const { message } of readable) {
          message.ack();
          this.progress.acknowledged();
        }
        return;
      } catch (error) {
        this.logger.warn(
          { subject: this.subject, consumer: this.durable, events: readable.length, err: errorText(error) },
          'Applying events together failed; applying them one at a time',
        );
      }
    }
    for (const { message, event } of readable) await this.handle(message, event);
  }

  /** The message's event, or undefined when it is not an event envelope. */
  private read(message: JsMsg): EventEnvelope | undefined {
    try {
      const parsed: unknown = JSON.parse(message.string());
      return envelopeProblem(parsed) ? undefined : (parsed as EventEnvelope);
    } catch {
      return undefined;
    }
  }

  /**
   * Applies one message (`event` when already read): ack on success, redelivery later on
   * failure, dead letter at the end.
   */
  private async handle(message: JsMsg, read?: EventEnvelope): Promise<void> {
    const { subject, durable } = this;
    const maxDeliver = this.config.maxDeliver;
    const deliveries = message.info.deliveryCount;
    const raw = message.string();
    let event: EventEnvelope | undefined = read;
    let problem: string | undefined;
    if (!event) {
      try {
        const parsed: unknown = JSON.parse(raw);
        problem = envelopeProblem(parsed);
        if (!problem) event = parsed as EventEnvelope;
      } catch {
        problem = 'the message is not JSON';
      }
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
      await this.giveUp(message, {
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
      await this.deliver(event);
      message.ack();
      this.progress.acknowledged();
    } catch (error) {
      const reason = errorText(error);
      if (deliveries >= maxDeliver) {
        await this.giveUp(message, {
          consumer: durable,
          subject,
          eventId: event.id,
          payload: raw,
          error: reason,
          deliveries,
        });
        return;
      }
      const delay = retryDelayMs(deliveries, this.config.retryDelay);
      this.logger.warn(
        { subject, event_id: event.id, consumer: durable, deliveries, retry_in_ms: delay, err: reason },
        'Event handler failed; redelivering',
      );
      message.nak(delay);
    }
  }

  /** Dead-letters a message; if even that fails, it is redelivered later instead of lost. */
  private async giveUp(message: JsMsg, letter: DeadLetterRecord): Promise<void> {
    try {
      await this.options.onDeadLetter?.(letter);
    } catch (error) {
      this.logger.error(
        { subject: letter.subject, consumer: letter.consumer, err: errorText(error) },
        'Could not store a dead letter; redelivering',
      );
      message.nak(retryDelayMs(letter.deliveries, this.config.retryDelay));
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
    this.progress.acknowledged();
  }
}
