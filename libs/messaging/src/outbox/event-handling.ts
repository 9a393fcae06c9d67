import { Logger } from '@nestjs/common';
import type { ConsumerMessages, JsMsg } from '@nats-io/jetstream';
import type { EventEnvelope } from '@media/contracts';
import type { EventsConfig } from '@media/core';
import { inBatches } from '../jobs/in-batches';
import type { ConsumerProgress } from './consumer-progress';
import {
  envelopeProblem,
  errorText,
  retryDelayMs,
  type DeadLetterRecord,
  type EventDelivery,
  type SubscribeOptions,
} from './event-delivery';

/**
 * What one durable consumer does with the messages its pulls bring: applies them (one at a time,
 * or together with `deliverMany`), acknowledges them, nak's a failed one for a redelivery with a
 * doubling delay, dead-letters it at the end, and counts the messages it holds unsettled (a
 * heartbeat is progress only when there are none).
 */
export class EventHandling {
  private readonly logger = new Logger('EventBus');
  private readonly subject: string;
  private readonly durable: string;
  private readonly deliver: EventDelivery;
  private readonly options: SubscribeOptions;
  private readonly config: EventsConfig;
  /** At most this many messages are applied together (a pull's batch). */
  private readonly maxBatch: number;
  private held = 0;

  constructor(
    consumer: {
      subject: string;
      durable: string;
      deliver: EventDelivery;
      options: SubscribeOptions;
      config: EventsConfig;
      maxBatch: number;
    },
    private readonly progress: ConsumerProgress,
  ) {
    this.subject = consumer.subject;
    this.durable = consumer.durable;
    this.deliver = consumer.deliver;
    this.options = consumer.options;
    this.config = consumer.config;
    this.maxBatch = consumer.maxBatch;
  }

  /** Messages handed to the handler and not acknowledged, terminated or nak'ed yet. */
  get inHand(): number {
    return this.held;
  }

  /** Handles every message of a pull until it ends; `received` is told of each as it arrives. */
  async run(messages: ConsumerMessages, received: () => void): Promise<void> {
    if (this.options.deliverMany) return this.handleInBatches(messages, received);
    for await (const message of messages) {
      this.held++;
      received();
      await this.handle(message);
    }
  }

  /** Acknowledges (progress), terminates (progress: dead-lettered) or nak's a message in hand. */
  private settle(message: JsMsg, how: 'ack' | 'term' | 'nak', delay?: number): void {
    this.held = Math.max(0, this.held - 1);
    if (how === 'nak') {
      message.nak(delay);
      this.progress.failed();
      return;
    }
    if (how === 'ack') message.ack();
    else message.term();
    this.progress.acknowledged();
  }

  /**
   * Group commit (`inBatches`): the first message is applied at once, those that arrive meanwhile
   * are applied together next (at most `maxBatch`, a pull's batch, at a time), so a burst costs
   * one transaction per batch and a lone event waits for nothing; the pull waits while a full
   * batch is queued.
   */
  private handleInBatches(messages: ConsumerMessages, received: () => void): Promise<void> {
    return inBatches(
      messages,
      this.maxBatch,
      (batch) => this.handleBatch(batch),
      () => {
        this.held++;
        received();
      },
    );
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
        for (const { message } of readable) this.settle(message, 'ack');
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
      this.settle(message, 'ack');
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
      this.settle(message, 'nak', delay);
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
      this.settle(message, 'nak', retryDelayMs(letter.deliveries, this.config.retryDelay));
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
    this.settle(message, 'term');
  }
}
