import { Inject, Injectable } from '@nestjs/common';
import {
  AclEvents,
  AssignmentEvents,
  ChatEvents,
  DocumentsEvents,
  type EventEnvelope,
} from '@media/contracts';
import { OnEvents } from '@media/messaging';
import type { EntityManager } from 'typeorm';
import { AnyEventPayload } from './dto/any-event.dto';
import { WebhooksWorker } from './webhooks.worker';

/**
 * Every durable event of the EVENTS stream, kept as the body its webhooks send
 * (`{type, timestamp, data}`) with one message per enabled endpoint subscribed to its type, in
 * the transaction that records the event's id (a redelivery adds nothing). One handler per
 * subject: the platform keeps one durable consumer per app and subject, shared by the replicas.
 * A burst is kept a batch at a time (`@OnEvents`): one transaction and one statement per batch,
 * not per event, which is what the fan-out's rate is bound by.
 */
@Injectable()
export class WebhooksConsumer {
  constructor(@Inject(WebhooksWorker) private readonly worker: WebhooksWorker) {}

  @OnEvents(AclEvents.correspondentInvited, AnyEventPayload)
  correspondentInvited(events: EventEnvelope[], manager: EntityManager): Promise<void> {
    return this.keep(events, manager);
  }

  @OnEvents(DocumentsEvents.documentDeleted, AnyEventPayload)
  documentDeleted(events: EventEnvelope[], manager: EntityManager): Promise<void> {
    return this.keep(events, manager);
  }

  @OnEvents(ChatEvents.messageCreated, AnyEventPayload)
  messageCreated(events: EventEnvelope[], manager: EntityManager): Promise<void> {
    return this.keep(events, manager);
  }

  @OnEvents(AssignmentEvents.taskClaimed, AnyEventPayload)
  taskClaimed(events: EventEnvelope[], manager: EntityManager): Promise<void> {
    return this.keep(events, manager);
  }

  @OnEvents(AssignmentEvents.taskUnclaimed, AnyEventPayload)
  taskUnclaimed(events: EventEnvelope[], manager: EntityManager): Promise<void> {
    return this.keep(events, manager);
  }

  @OnEvents(AssignmentEvents.taskStarted, AnyEventPayload)
  taskStarted(events: EventEnvelope[], manager: EntityManager): Promise<void> {
    return this.keep(events, manager);
  }

  @OnEvents(AssignmentEvents.taskCompleted, AnyEventPayload)
  taskCompleted(events: EventEnvelope[], manager: EntityManager): Promise<void> {
    return this.keep(events, manager);
  }

  @OnEvents(AssignmentEvents.taskCancelled, AnyEventPayload)
  taskCancelled(events: EventEnvelope[], manager: EntityManager): Promise<void> {
    return this.keep(events, manager);
  }

  @OnEvents(AssignmentEvents.taskReassigned, AnyEventPayload)
  taskReassigned(events: EventEnvelope[], manager: EntityManager): Promise<void> {
    return this.keep(events, manager);
  }

  @OnEvents(AssignmentEvents.taskEscalated, AnyEventPayload)
  taskEscalated(events: EventEnvelope[], manager: EntityManager): Promise<void> {
    return this.keep(events, manager);
  }

  /** The events (in their order) and their messages: one statement for a whole batch. */
  private async keep(events: EventEnvelope[], manager: EntityManager): Promise<void> {
    const bodies = events.map((event) =>
      JSON.stringify({ type: event.subject, timestamp: event.occurred_at, data: event.data }),
    );
    const queued: unknown[] = await manager.query(
      `WITH input AS (
         SELECT * FROM unnest($1::uuid[], $2::text[], $3::timestamptz[], $4::text[])
           WITH ORDINALITY AS t(id, type, occurred_at, body, n)
       ), ev AS (
         INSERT INTO webhook_events (id, type, occurred_at, body)
         SELECT id, type, occurred_at, body FROM input ORDER BY n
         ON CONFLICT (id) DO NOTHING RETURNING id, type
       )
       INSERT INTO webhook_messages (endpoint_id, event_id, type, next_attempt_at)
       SELECT e.id, ev.id, ev.type, clock_timestamp()
         FROM ev JOIN input USING (id) JOIN webhook_endpoints e
           ON NOT e.disabled AND (e.event_types @> ARRAY['*'] OR e.event_types @> ARRAY[ev.type])
        ORDER BY input.n
       ON CONFLICT DO NOTHING
       RETURNING id`,
      [
        events.map((event) => event.id),
        events.map((event) => event.subject),
        events.map((event) => event.occurred_at),
        bodies,
      ],
    );
    if (queued.length > 0) this.worker.nudge();
  }
}
