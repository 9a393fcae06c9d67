import { Inject, Injectable, SetMetadata, type OnApplicationBootstrap } from '@nestjs/common';
import { DiscoveryService, MetadataScanner } from '@nestjs/core';
import { InjectDataSource } from '@nestjs/typeorm';
import type { EventEnvelope } from '@media/contracts';
import type { DataSource, EntityManager } from 'typeorm';
import { APP_NAME } from '../config/tokens';
import { requestContext } from '../http/request-context';
import { AppMetrics } from '../observability/metrics';
import { contextFrom, inSpan, SpanKind } from '../observability/tracing';
import { EventBus, type DeadLetterRecord } from './event-bus';
import { DeadLetter } from './outbox.entity';

const ON_EVENT = 'events:on-event';

/**
 * Marks a provider method as the handler of a durable event. It runs in a transaction with the
 * record of the event's id, so a redelivered event is applied once: `(event, manager) => Promise<void>`.
 */
export const OnEvent = (subject: string) => SetMetadata(ON_EVENT, subject);

/** True for a method marked `@OnEvent` (the platform runs event discovery only for apps with one). */
export const isEventHandler = (method: object): boolean => Reflect.hasMetadata(ON_EVENT, method);

export type EventHandlerMethod<T = unknown> = (
  event: EventEnvelope<T>,
  manager: EntityManager,
) => Promise<void>;

/** Finds every @OnEvent method at start and subscribes it through the EventBus. */
@Injectable()
export class EventConsumers implements OnApplicationBootstrap {
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
        const name = `${wrapper.name}.${method}`;
        const consumer = `${this.app}:${name}`;
        await this.bus.subscribe(subject, (event) => this.apply(consumer, event, handler.bind(instance)), {
          handler: name,
          onDeadLetter: (letter) => this.deadLetter(consumer, letter),
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

  private async apply(consumer: string, event: EventEnvelope, handler: EventHandlerMethod): Promise<void> {
    const { traceparent, ...meta } = event.meta ?? {};
    const attributes = { 'messaging.system': 'nats', 'messaging.destination.name': event.subject, consumer };
    try {
      await requestContext.run(meta, () =>
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
