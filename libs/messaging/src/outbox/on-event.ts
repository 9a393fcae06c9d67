import { Inject, Injectable, Logger, SetMetadata, type OnApplicationBootstrap } from '@nestjs/common';
import { DiscoveryService, MetadataScanner } from '@nestjs/core';
import { InjectDataSource } from '@nestjs/typeorm';
import type { EventEnvelope } from '@media/contracts';
import { plainToInstance } from 'class-transformer';
import { validate } from 'class-validator';
import type { DataSource, EntityManager } from 'typeorm';
import { APP_NAME, toIssues } from '@media/kernel';
import { requestContext, AppMetrics, contextFrom, inSpan, SpanKind } from '@media/core';
import { EventBus } from './event-bus';
import type { DeadLetterRecord } from './event-delivery';
import { DeadLetter } from './outbox.entity';

const ON_EVENT = 'events:on-event';
const EVENT_PAYLOAD = 'events:payload';
const ON_EVENTS = 'events:on-events';
/** Issues named in a dead letter's `error`, at most (the rest are counted). */
const SHOWN_ISSUES = 10;

/**
 * Marks a provider method as the handler of a durable event. It runs in a transaction with the
 * record of the event's id, so a redelivered event is applied once: `(event, manager) => Promise<void>`.
 *
 * `payload` is a class-validator class of the fields the handler reads (it `implements` the
 * contract's payload type where it checks all of it): the event's `data` is validated against it
 * before the handler runs, as `@RpcPayload` validates a request. Fields it does not declare are
 * kept, so a producer may add fields before its consumers know them. An event that fails is
 * malformed: redelivering it cannot help, so it goes to the dead letters at once (never to the
 * handler, never retried) and is acknowledged.
 */
export const OnEvent =
  (subject: string, payload: new () => object): MethodDecorator =>
  (target, key, descriptor) => {
    SetMetadata(ON_EVENT, subject)(target, key, descriptor);
    SetMetadata(EVENT_PAYLOAD, payload)(target, key, descriptor);
  };

/**
 * Marks a provider method as the handler of a durable event that applies a burst of them
 * together: `(events, manager) => Promise<void>` in ONE transaction with the records of their
 * ids (a redelivered one is left out; the handler is not called when none is left). Events that
 * arrived while the previous ones were being applied come together (at most 50); a lone event
 * comes alone, at once. When the batch fails, each of its events is applied alone (retried and
 * dead-lettered as `@OnEvent`'s). For a consumer whose per-event work is one statement, where
 * the transaction around it is most of the cost. `payload` as for `@OnEvent`.
 */
export const OnEvents =
  (subject: string, payload: new () => object): MethodDecorator =>
  (target, key, descriptor) => {
    SetMetadata(ON_EVENT, subject)(target, key, descriptor);
    SetMetadata(EVENT_PAYLOAD, payload)(target, key, descriptor);
    SetMetadata(ON_EVENTS, true)(target, key, descriptor);
  };

/**
 * Why an event's `data` does not fit its handler's payload class (`data.<field>: <message>; ...`),
 * or undefined; on success the validated instance replaces `data`.
 */
export async function eventPayloadProblem(
  payload: new () => object,
  event: EventEnvelope,
): Promise<string | undefined> {
  const data: unknown = event.data;
  if (typeof data !== 'object' || data === null || Array.isArray(data))
    return 'data: the event has no object data';
  let instance: object;
  try {
    instance = plainToInstance(payload, data, { enableImplicitConversion: false });
  } catch {
    return 'data: a shape that cannot be read';
  }
  const errors = await validate(instance, { whitelist: false, forbidUnknownValues: false });
  if (errors.length === 0) {
    event.data = instance;
    return undefined;
  }
  const issues = toIssues(errors, ['data']);
  const shown = issues.slice(0, SHOWN_ISSUES).map((issue) => `${issue.loc.join('.')}: ${issue.msg}`);
  if (issues.length > SHOWN_ISSUES) shown.push(`and ${issues.length - SHOWN_ISSUES} more`);
  return `malformed event: ${shown.join('; ')}`;
}

/**
 * A provider may name its handlers' durable consumers itself (method name → handler name) instead
 * of `<Provider>.<method>`: a platform provider that took over an app's handler keeps that app's
 * consumer, its position in the stream and its processed-event records.
 */
export const EVENT_HANDLER_NAMES = Symbol('events:handler-names');

export interface NamedEventHandlers {
  readonly [EVENT_HANDLER_NAMES]: Record<string, string>;
}

/** True for a method marked `@OnEvent` (the platform runs event discovery only for apps with one). */
export const isEventHandler = (method: object): boolean => Reflect.hasMetadata(ON_EVENT, method);

export type EventHandlerMethod<T = unknown> = (
  event: EventEnvelope<T>,
  manager: EntityManager,
) => Promise<void>;

export type EventBatchHandlerMethod<T = unknown> = (
  events: EventEnvelope<T>[],
  manager: EntityManager,
) => Promise<void>;

/** Finds every @OnEvent method at start and subscribes it through the EventBus. */
@Injectable()
export class EventConsumers implements OnApplicationBootstrap {
  private readonly logger = new Logger('EventConsumers');

  constructor(
    @Inject(DiscoveryService) private readonly discovery: DiscoveryService,
    @Inject(MetadataScanner) private readonly scanner: MetadataScanner,
    @Inject(EventBus) private readonly bus: EventBus,
    @InjectDataSource() private readonly dataSource: DataSource,
    @Inject(APP_NAME) private readonly app: string,
    @Inject(AppMetrics) private readonly metrics: AppMetrics,
  ) {}

  async onApplicationBootstrap(): Promise<void> {
    for (const wrapper of this.discovery.getProviders()) {
      const instance = wrapper.instance as Record<string, unknown> | undefined;
      if (!instance || typeof instance !== 'object') continue;
      const prototype = Object.getPrototypeOf(instance) as object;
      for (const method of this.scanner.getAllMethodNames(prototype)) {
        const handler = instance[method] as EventHandlerMethod;
        const subject = Reflect.getMetadata(ON_EVENT, handler) as string | undefined;
        if (!subject) continue;
        const payload = Reflect.getMetadata(EVENT_PAYLOAD, handler) as new () => object;
        const names = (instance as Partial<NamedEventHandlers>)[EVENT_HANDLER_NAMES];
        const name = names?.[method] ?? `${wrapper.name}.${method}`;
        const consumer = `${this.app}:${name}`;
        const onDeadLetter = (letter: DeadLetterRecord) => this.deadLetter(consumer, letter);
        if (Reflect.getMetadata(ON_EVENTS, handler)) {
          const many = handler.bind(instance) as unknown as EventBatchHandlerMethod;
          const one: EventHandlerMethod = (event, manager) => many([event], manager);
          await this.bus.subscribe(subject, (event) => this.apply(consumer, event, payload, one), {
            handler: name,
            onDeadLetter,
            deliverMany: (events) => this.applyMany(consumer, events, payload, many),
          });
          continue;
        }
        const bound = handler.bind(instance) as EventHandlerMethod;
        await this.bus.subscribe(subject, (event) => this.apply(consumer, event, payload, bound), {
          handler: name,
          onDeadLetter,
        });
      }
    }
  }

  private async deadLetter(consumer: string, letter: DeadLetterRecord): Promise<void> {
    await this.dataSource.getRepository(DeadLetter).insert({
      consumer,
      subject: letter.subject,
      eventId: letter.eventId,
      payload: letter.payload,
      error: letter.error,
      deliveries: letter.deliveries,
    });
    this.metrics.deadLettered.inc({ subject: letter.subject });
  }

  /**
   * A malformed event: dead-lettered once (with the record of its id, so a redelivery adds no
   * second letter), logged, and acknowledged by returning normally.
   */
  private async rejectMalformed(consumer: string, event: EventEnvelope, problem: string): Promise<void> {
    const stored = await this.dataSource.transaction(async (manager) => {
      const inserted: unknown[] = await manager.query(
        `INSERT INTO processed_events (event_id, consumer) VALUES ($1, $2) ON CONFLICT DO NOTHING RETURNING event_id`,
        [event.id, consumer],
      );
      if (inserted.length === 0) return false;
      await manager.getRepository(DeadLetter).insert({
        consumer,
        subject: event.subject,
        eventId: event.id,
        payload: JSON.stringify(event),
        error: problem,
        deliveries: 1,
      });
      return true;
    });
    this.metrics.eventsHandled.inc({ subject: event.subject, outcome: 'malformed' });
    if (!stored) return;
    this.metrics.deadLettered.inc({ subject: event.subject });
    this.logger.error(
      { subject: event.subject, event_id: event.id, consumer, err: problem },
      'Event dead-lettered',
    );
  }

  /**
   * Applies events together (`@OnEvents`): the malformed ones dead-lettered alone, the others in
   * one transaction with their ids' records; a throw makes the bus apply each alone.
   */
  private async applyMany(
    consumer: string,
    events: EventEnvelope[],
    payload: new () => object,
    handler: EventBatchHandlerMethod,
  ): Promise<void> {
    const wellFormed: EventEnvelope[] = [];
    for (const event of events) {
      const problem = await eventPayloadProblem(payload, event);
      if (problem) await this.rejectMalformed(consumer, event, problem);
      else wellFormed.push(event);
    }
    if (wellFormed.length === 0) return;
    const subject = wellFormed[0].subject;
    const attributes = {
      'messaging.system': 'nats',
      'messaging.destination.name': subject,
      'messaging.batch.message_count': wellFormed.length,
      consumer,
    };
    // Its changes are the consumer's (a system actor); one event is their cause only when it
    // came alone (a batch handler writes derived rows, not the audited resources of §8.1).
    const audit = {
      actor: { type: 'system' as const, id: consumer, name: null },
      cause: wellFormed.length === 1 ? wellFormed[0].id : undefined,
    };
    // No metric when the batch fails: the bus then applies each event alone, counted there.
    await requestContext.run({ audit }, () =>
      inSpan(`consume ${subject}`, SpanKind.CONSUMER, attributes, () =>
        this.dataSource.transaction(async (manager) => {
          const inserted = (await manager.query(
            `INSERT INTO processed_events (event_id, consumer) SELECT unnest($1::uuid[]), $2
             ON CONFLICT DO NOTHING RETURNING event_id`,
            [wellFormed.map((event) => event.id), consumer],
          )) as { event_id: string }[];
          const fresh = new Set(inserted.map((row) => row.event_id));
          // Once each: a redelivered event, or one that came twice in this batch, is left out.
          const todo = wellFormed.filter((event) => fresh.delete(event.id));
          if (todo.length > 0) await handler(todo, manager);
        }),
      ),
    );
    for (const event of wellFormed) this.metrics.eventsHandled.inc({ subject: event.subject, outcome: 'ok' });
  }

  private async apply(
    consumer: string,
    event: EventEnvelope,
    payload: new () => object,
    handler: EventHandlerMethod,
  ): Promise<void> {
    const problem = await eventPayloadProblem(payload, event);
    if (problem) return this.rejectMalformed(consumer, event, problem);
    const { traceparent, ...meta } = event.meta ?? {};
    const attributes = { 'messaging.system': 'nats', 'messaging.destination.name': event.subject, consumer };
    try {
      // Its changes are the consumer's (a system actor), caused by the event.
      const audit = { actor: { type: 'system' as const, id: consumer, name: null }, cause: event.id };
      await requestContext.run({ ...meta, audit }, () =>
        inSpan(
          `consume ${event.subject}`,
          SpanKind.CONSUMER,
          attributes,
          () =>
            this.dataSource.transaction(async (manager) => {
              const inserted: unknown[] = await manager.query(
                `INSERT INTO processed_events (event_id, consumer) VALUES ($1, $2) ON CONFLICT DO NOTHING RETURNING event_id`,
                [event.id, consumer],
              );
              if (inserted.length === 0) return;
              await handler(event, manager);
            }),
          contextFrom({ traceparent }),
        ),
      );
      this.metrics.eventsHandled.inc({ subject: event.subject, outcome: 'ok' });
    } catch (error) {
      this.metrics.eventsHandled.inc({ subject: event.subject, outcome: 'error' });
      throw error;
    }
  }
}
