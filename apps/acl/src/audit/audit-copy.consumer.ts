import {
  Inject,
  Injectable,
  Logger,
  type OnApplicationBootstrap,
  type OnApplicationShutdown,
} from '@nestjs/common';
import {
  AckPolicy,
  DeliverPolicy,
  DiscardPolicy,
  jetstream,
  jetstreamManager,
  RetentionPolicy,
  StorageType,
  type ConsumerMessages,
  type JetStreamManager,
  type JsMsg,
} from '@nats-io/jetstream';
import { connect, type NatsConnection } from '@nats-io/transport-node';
import { AUDIT_STREAM, auditSubject } from '@media/contracts';
import type { AuditEntry } from '@media/core';
import { InjectConfig } from '@media/kernel';
import { inBatches, isInProcess, natsConnectionOptions } from '@media/messaging';
import type { AclConfig } from '../config';
import { AuditCopyService } from './audit-copy.service';
import { asAuditEntry, auditMessageProblem } from './audit-message';

/** Nanoseconds per millisecond: JetStream durations are in nanoseconds. */
const NS = 1_000_000;
const SUBJECTS = auditSubject('>');
/**
 * Messages a pull brings at most (runs of up to 200 entries each, or single entries from before
 * runs: 10,000 entries, 12.5 MiB at most). Pulls heartbeat every second; two missed (the
 * consumer's leader died) start the loop over.
 */
const CONSUME = { max_messages: 50, expires: 5_000, idle_heartbeat: 1_000 } as const;
/** Entries stored by one statement at most. */
const STATEMENT_ENTRIES = 1_000;
const RESTART_ON = new Set([
  'heartbeats_missed',
  'consumer_deleted',
  'consumer_not_found',
  'stream_not_found',
]);
const API_TIMEOUT_MS = 2_000;

const errorText = (error: unknown) => (error instanceof Error ? error.message : String(error));

/**
 * Feeds acl's merged copy (`audit_all`) from the AUDIT stream (`audit.<app>`, a message per run
 * of sealed entries, or per entry from before runs): one durable pull consumer shared by acl's
 * replicas, the entries a pull brought meanwhile stored together (`inBatches`), each before its
 * message is acked, redelivery harmless (`(app, seq)` is unique). Creates the stream when no app
 * has yet, with the EVENTS stream's retention (limits, file storage, EVENTS_* limits).
 */
@Injectable()
export class AuditCopyConsumer implements OnApplicationBootstrap, OnApplicationShutdown {
  private readonly logger = new Logger('AuditCopy');
  private connection?: NatsConnection;
  private pull?: ConsumerMessages;
  private closing = false;
  private loop?: Promise<void>;

  constructor(
    @InjectConfig() private readonly config: AclConfig,
    @Inject(AuditCopyService) private readonly copy: AuditCopyService,
  ) {}

  onApplicationBootstrap(): void {
    if (isInProcess(this.config.nats)) {
      this.logger.warn('NATS_URL is inproc: no AUDIT stream, the merged audit copy stays as it is');
      return;
    }
    this.loop = this.consume();
  }

  async onApplicationShutdown(): Promise<void> {
    this.closing = true;
    await this.pull?.close().catch(() => undefined);
    // The loop may be waiting for a NATS that never came up: shutdown does not wait on it.
    await Promise.race([this.loop, new Promise((resolve) => setTimeout(resolve, 3_000).unref())]);
    await this.connection?.drain().catch(() => undefined);
  }

  private get durable(): string {
    return [this.config.events.consumerPrefix, 'acl', 'audit-copy'].filter(Boolean).join('--');
  }

  /** Creates the consumer (and stream) and pulls until shutdown, starting over on any failure. */
  private async consume(): Promise<void> {
    let attempt = 0;
    while (!this.closing) {
      try {
        this.connection ??= await connect({
          ...natsConnectionOptions(this.config.nats.url, this.config.nats),
          name: 'acl-audit-copy',
          maxReconnectAttempts: -1,
          reconnectTimeWait: 1_000,
          waitOnFirstConnect: true,
        });
        await this.ensureConsumer(await jetstreamManager(this.connection, { timeout: API_TIMEOUT_MS }));
        const consumer = await jetstream(this.connection, { timeout: API_TIMEOUT_MS }).consumers.get(
          AUDIT_STREAM,
          this.durable,
        );
        const messages = await consumer.consume(CONSUME);
        this.pull = messages;
        if (this.closing) break;
        if (attempt > 0) this.logger.log({ consumer: this.durable }, 'Audit copy consumer resumed');
        attempt = 0;
        void (async () => {
          for await (const status of messages.status())
            if (RESTART_ON.has(status.type)) {
              void messages.close();
              break;
            }
        })();
        await inBatches(messages, CONSUME.max_messages, (batch) => this.handleBatch(batch));
      } catch (error) {
        if (this.closing) break;
        attempt++;
        if (attempt <= 3 || attempt % 15 === 0)
          this.logger.warn(
            { consumer: this.durable, attempt, err: errorText(error) },
            'Audit copy consumer failed; retrying',
          );
        await new Promise((resolve) => setTimeout(resolve, Math.min(2_000, 250 * 2 ** (attempt - 1))));
      } finally {
        this.pull = undefined;
      }
    }
  }

  private async ensureConsumer(jsm: JetStreamManager): Promise<void> {
    const exists = () =>
      jsm.streams.info(AUDIT_STREAM).then(
        () => true,
        () => false,
      );
    if (!(await exists())) {
      const { events } = this.config;
      await jsm.streams
        .add({
          name: AUDIT_STREAM,
          subjects: [SUBJECTS],
          retention: RetentionPolicy.Limits,
          storage: StorageType.File,
          num_replicas: events.replicas,
          max_age: events.maxAge * NS,
          max_bytes: events.maxBytes,
          duplicate_window: events.duplicateWindow * NS,
          discard: DiscardPolicy.Old,
        })
        .catch(async (error: unknown) => {
          // Another app (or replica) created it meanwhile.
          if (!(await exists())) throw error;
        });
    }
    const settings = { filter_subject: SUBJECTS, ack_wait: 30_000 * NS };
    await jsm.consumers
      .add(AUDIT_STREAM, {
        durable_name: this.durable,
        ack_policy: AckPolicy.Explicit,
        deliver_policy: DeliverPolicy.All,
        ...settings,
      })
      .catch(async () => jsm.consumers.update(AUDIT_STREAM, this.durable, settings));
  }

  /**
   * Stores what a pull brought meanwhile together (a statement per STATEMENT_ENTRIES), then acks
   * it; a malformed message or entry is logged and dropped, and when storing fails each message's
   * entries are stored on their own. (Called by the pull loop; public for its unit test.)
   */
  async handleBatch(batch: JsMsg[]): Promise<void> {
    const readable: { message: JsMsg; entries: AuditEntry[] }[] = [];
    for (const message of batch) {
      const entries = this.read(message);
      if (entries) readable.push({ message, entries });
    }
    if (readable.length > 1) {
      try {
        const entries = readable.flatMap((message) => message.entries);
        for (let from = 0; from < entries.length; from += STATEMENT_ENTRIES)
          await this.copy.store(entries.slice(from, from + STATEMENT_ENTRIES));
        for (const { message } of readable) message.ack();
        return;
      } catch (error) {
        this.logger.warn(
          { messages: readable.length, err: errorText(error) },
          'Storing audit entries together failed; storing them message by message',
        );
      }
    }
    for (const { message, entries } of readable) await this.storeOne(message, entries);
  }

  /**
   * The message's sealed entries: a run (a JSON array of §8.1 entries) or one entry (a §8.1
   * object, as published before runs). An entry that is not one is logged and dropped; a message
   * with none is terminated (it can never be stored, so it is not redelivered).
   */
  private read(message: JsMsg): AuditEntry[] | undefined {
    let parsed: unknown;
    try {
      parsed = message.json<unknown>();
    } catch {
      parsed = undefined;
    }
    const candidates = Array.isArray(parsed) ? parsed : [parsed];
    const entries: AuditEntry[] = [];
    for (const candidate of candidates) {
      const problem = auditMessageProblem(message.subject, candidate);
      if (!problem) entries.push(asAuditEntry(candidate));
      else
        this.logger.error(
          { subject: message.subject, stream_seq: message.seq, problem },
          'Dropped an AUDIT message entry that is not a sealed entry',
        );
    }
    if (entries.length > 0) return entries;
    message.term();
    return undefined;
  }

  /**
   * Stores one message's entries and acks it: together, else (a run) one at a time, so that one
   * entry that cannot be stored holds back only itself; re-storing the others when the message is
   * redelivered changes nothing. A failure is redelivered later, with a doubling delay.
   */
  private async storeOne(message: JsMsg, entries: AuditEntry[]): Promise<void> {
    try {
      await this.storeRun(entries);
      message.ack();
    } catch (error) {
      const delay = Math.min(60_000, 1_000 * 2 ** Math.min(6, message.info.deliveryCount - 1));
      this.logger.warn(
        { subject: message.subject, deliveries: message.info.deliveryCount, err: errorText(error) },
        'Storing audit entries failed; redelivering',
      );
      message.nak(delay);
    }
  }

  /** Stores a run in one statement, else entry by entry; throws the first entry's failure. */
  private async storeRun(entries: AuditEntry[]): Promise<void> {
    try {
      await this.copy.store(entries);
      return;
    } catch (error) {
      if (entries.length === 1) throw error;
    }
    let failure: unknown;
    for (const entry of entries) {
      try {
        await this.copy.store([entry]);
      } catch (error) {
        failure ??= error;
      }
    }
    if (failure !== undefined) throw failure;
  }
}
