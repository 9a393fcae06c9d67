import { Logger } from '@nestjs/common';
import {
  AckPolicy,
  DeliverPolicy,
  jetstream,
  jetstreamManager,
  JetStreamApiCodes,
  JetStreamApiError,
  type Consumer,
  type ConsumerInfo,
  type ConsumerMessages,
} from '@nats-io/jetstream';
import type { NatsConnection } from '@nats-io/transport-node';
import { EVENTS_STREAM } from '@media/contracts';
import type { EventsConfig } from '@media/core';
import { ConsumerProgress } from './consumer-progress';
import { errorText, NS, restartDelayMs, type EventDelivery, type SubscribeOptions } from './event-delivery';
import { EventHandling } from './event-handling';

const ACK_WAIT_MS = 30_000;

/**
 * Pull requests: each lives `expires` ms and the server heartbeats it every `idle_heartbeat` ms
 * while it has nothing to send. Two missed heartbeats (the consumer's leader died, the request
 * with it) restart the consume loop, so delivery resumes about 2 s after a new leader exists
 * instead of after the library's 30 s expiry plus its 30 s retry. `bind`: the library asks no
 * consumer info of its own (the loop decides when to, see `consume`).
 */
export const CONSUME_OPTIONS = {
  max_messages: 50,
  expires: 5_000,
  idle_heartbeat: 1_000,
  bind: true,
} as const;
/**
 * Notifications of `consume` after which the loop starts over (re-creating the consumer if gone);
 * `no_responders`: no node leads the consumer (or it is gone), nothing will answer that pull.
 */
const RESTART_ON = new Set(['heartbeats_missed', 'no_responders', 'consumer_deleted']);
/** Unanswered pulls in a row after which the loop asks whether the consumer still exists. */
const VERIFY_EVERY = 3;
/** JetStream API calls of the consume loop and the monitor: short, they are retried. */
export const API_TIMEOUT_MS = 2_000;
/** The JetStream API's "JetStream system temporarily unavailable" (no leader to answer). */
export const CLUSTER_UNAVAILABLE = 10008;

/** What a consumer needs of the bus: its connection, the stream, and whether it shuts down. */
export interface ConsumerHost {
  nats(): Promise<NatsConnection>;
  ensureStream(): Promise<void>;
  closing(): boolean;
}

/**
 * One durable JetStream consumer of one handler: creates it (retried with backoff, logged),
 * pulls its messages and hands them to its `EventHandling` (ack, redelivery with a doubling
 * delay, dead letter at the end), and records its progress for readiness and the gauges.
 */
export class EventConsumer {
  private readonly logger = new Logger('EventBus');
  readonly progress: ConsumerProgress;
  /** Applies, acknowledges and dead-letters the messages of its pulls. */
  private readonly handling: EventHandling;
  /** The running pull, closed to restart the loop or at shutdown. */
  private pull?: ConsumerMessages;
  /** Why the running pull was closed to restart the loop (logged with the restart). */
  private restartReason?: string;
  /** Since when the loop has been failing, until the leader answers a new pull (then logged). */
  private failingSince?: number;
  /** Ends the running retry wait early (see `wake`). */
  private wakeUp?: () => void;
  /** A wake-up came during an attempt: if that attempt fails, the next one starts at once. */
  private woken = false;
  /** The running pull has been answered by the consumer's leader (a message or a heartbeat). */
  private pullAnswered = false;
  /** The server said the consumer does not exist: the loop creates it again. */
  private gone = false;

  constructor(
    private readonly subject: string,
    readonly durable: string,
    deliver: EventDelivery,
    options: SubscribeOptions,
    private readonly config: EventsConfig,
    private readonly host: ConsumerHost,
  ) {
    this.progress = new ConsumerProgress(durable, config.stallAfter);
    this.handling = new EventHandling(
      { subject, durable, deliver, options, config, maxBatch: CONSUME_OPTIONS.max_messages },
      this.progress,
    );
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

  /**
   * The cluster just elected a leader for this consumer or for the stream: a loop waiting to
   * retry tries now rather than at the end of its delay, and a pull nobody has answered yet is
   * sent again (to the new leader), so a consumer comes back as soon as the cluster can serve it,
   * without polling faster meanwhile.
   */
  wake(): void {
    if (this.wakeUp) this.wakeUp();
    else if (this.pull && !this.pullAnswered) this.restart('leader elected');
    else this.woken = true;
  }

  /** Ends the running pull (the loop sees the host closing and stops). */
  async close(): Promise<void> {
    await this.pull?.close().catch(() => undefined);
  }

  /**
   * The loop: creates the durable consumer, pulls and handles its messages, and starts over when
   * the pull stops delivering (no answer: the consumer's leader is gone) or the consumer was
   * deleted, until shutdown. A pull starts over without asking the consumer's info first: a pull
   * reaches only the consumer's leader, whereas an info request takes the first answer of any
   * node, and after quorum returns a node that has not heard of the new leader yet answers
   * "JetStream system temporarily unavailable" meanwhile (for 19 s in one test run). Whether the
   * consumer still exists is asked aside, after a few unanswered pulls in a row.
   */
  private async consume(created: () => void): Promise<void> {
    const { subject, durable } = this;
    /** The consumer as created; undefined until then, and once the server said it is gone. */
    let consumer: Consumer | undefined;
    let attempt = 0;
    while (!this.host.closing()) {
      try {
        const nc = await this.host.nats();
        if (!consumer) {
          const info = await this.createConsumer();
          consumer = jetstream(nc, { timeout: API_TIMEOUT_MS }).consumers.getConsumerFromInfo(info);
          this.gone = false;
          created();
          this.progress.answered(false);
          if (attempt > 0)
            this.logger.log({ subject, consumer: durable, attempts: attempt + 1 }, 'Event consumer created');
        }
        const messages = await consumer.consume(CONSUME_OPTIONS);
        this.pull = messages;
        if (this.host.closing()) {
          await messages.close();
          break;
        }
        this.restartReason = undefined;
        this.pullAnswered = false;
        void (async () => {
          for await (const status of messages.status()) {
            if (status.type === 'heartbeat') this.answered(messages, true);
            if (!RESTART_ON.has(status.type)) continue;
            this.restartReason ??= status.type;
            void messages.close();
            break;
          }
        })();
        if (attempt > 0 && attempt % VERIFY_EVERY === 0) void this.verify(consumer);
        await this.handling.run(messages, () => this.answered(messages, false));
        if (this.host.closing()) break;
        const reason: string = this.restartReason ?? 'pull ended';
        if (reason === 'consumer_deleted' || this.gone) consumer = undefined;
        this.failingSince ??= Date.now();
        if (this.pullAnswered) {
          // It was delivering: start over at once, and say why.
          attempt = 1;
          this.woken = false;
          this.logger.warn({ subject, consumer: durable, reason }, 'Event consumer restarting');
          continue;
        }
        attempt++;
        await this.retryAfter(attempt, consumer !== undefined, `no answer to the pull (${reason})`);
      } catch (error) {
        if (this.host.closing()) break;
        attempt++;
        this.failingSince ??= Date.now();
        await this.retryAfter(attempt, consumer !== undefined, errorText(error));
      } finally {
        this.pull = undefined;
      }
    }
  }

  /**
   * Waits before attempt `attempt` (250 ms doubling to 2 s, less when woken: a leader was just
   * elected), logging the failure: every one at first, then every ~30 s, so that a long quorum
   * loss does not flood the log. Jittered down (never later than the plain backoff), so the
   * consumers of every app do not hit a recovering JetStream API in lockstep.
   */
  private async retryAfter(attempt: number, exists: boolean, err: string): Promise<void> {
    const delay = this.woken ? 0 : Math.round(restartDelayMs(attempt) * (0.5 + Math.random() / 2));
    this.woken = false;
    if (attempt <= 3 || attempt % 15 === 0) {
      this.logger.warn(
        { subject: this.subject, consumer: this.durable, attempt, retry_in_ms: delay, err },
        exists ? 'Event consumer failed; retrying' : 'Creating the event consumer failed; retrying',
      );
    }
    await this.pause(delay);
  }

  /** Asks whether the consumer still exists; if the server says not, the loop re-creates it. */
  private async verify(consumer: Consumer): Promise<void> {
    try {
      await consumer.info();
    } catch (error) {
      if (!(error instanceof JetStreamApiError) || error.code !== JetStreamApiCodes.ConsumerNotFound) return;
      this.gone = true;
      this.restart('consumer_not_found');
    }
  }

  /**
   * The consumer's leader answered the running pull (a message, or a heartbeat: nothing to
   * deliver). After a failure this is when the consumer is back, and it is logged then.
   */
  private answered(messages: ConsumerMessages, heartbeat: boolean): void {
    this.pullAnswered = true;
    this.progress.answered(heartbeat && this.handling.inHand === 0 && messages.getPending() === 0);
    if (this.failingSince === undefined) return;
    this.logger.log(
      { subject: this.subject, consumer: this.durable, after_ms: Date.now() - this.failingSince },
      'Event consumer resumed',
    );
    this.failingSince = undefined;
  }

  /** Waits `ms`, or less when woken meanwhile. */
  private pause(ms: number): Promise<void> {
    return new Promise((resolve) => {
      const done = () => {
        clearTimeout(timer);
        this.wakeUp = undefined;
        resolve();
      };
      const timer = setTimeout(done, ms);
      this.wakeUp = done;
    });
  }

  /**
   * Adds the durable consumer (one request: the same settings as the server's make it a no-op),
   * or updates the settings this version owns when it exists with others. Its info is returned.
   */
  private async createConsumer(): Promise<ConsumerInfo> {
    await this.host.ensureStream();
    // No API check first: that is one more request, answered by the meta leader only.
    const jsm = await jetstreamManager(await this.host.nats(), {
      timeout: API_TIMEOUT_MS,
      checkAPI: false,
    });
    const consumerConfig = {
      filter_subject: this.subject,
      ack_wait: ACK_WAIT_MS * NS,
      // One spare delivery: the handler's last failure is dead-lettered by us, with its error;
      // the server's bound only stops a message whose every delivery crashed the process.
      max_deliver: this.config.maxDeliver + 1,
    };
    try {
      return await jsm.consumers.add(EVENTS_STREAM, {
        durable_name: this.durable,
        ack_policy: AckPolicy.Explicit,
        deliver_policy: DeliverPolicy.All,
        ...consumerConfig,
      });
    } catch (error) {
      // Refused by a server that answered (it exists with other settings): update those. No
      // answer, or no leader to give one, is for the loop to retry, not two more requests.
      if (!(error instanceof JetStreamApiError) || error.code === CLUSTER_UNAVAILABLE) throw error;
      return jsm.consumers.update(EVENTS_STREAM, this.durable, consumerConfig);
    }
  }
}
