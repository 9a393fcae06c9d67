import { Inject, Injectable } from '@nestjs/common';
import {
  AclEvents,
  AssignmentEvents,
  ChatEvents,
  DocumentsEvents,
  type EventEnvelope,
} from '@media/contracts';
import { OnEvent } from '@media/platform';
import type { EntityManager } from 'typeorm';
import { AnyEventPayload } from './dto/any-event.dto';
import { WebhooksWorker } from './webhooks.worker';

/**
 * Every durable event of the EVENTS stream, kept as the body its webhooks send
 * (`{type, timestamp, data}`) with one message per enabled endpoint subscribed to its type, in
 * the transaction that records the event's id (a redelivery adds nothing). One handler per
 * subject: the platform keeps one durable consumer per app and subject, shared by the replicas.
 */
@Injectable()
export class WebhooksConsumer {
  constructor(@Inject(WebhooksWorker) private readonly worker: WebhooksWorker) {}

  @OnEvent(AclEvents.correspondentInvited, AnyEventPayload)
  correspondentInvited(event: EventEnvelope, manager: EntityManager): Promise<void> {
    return this.keep(event, manager);
  }

  @OnEvent(DocumentsEvents.documentDeleted, AnyEventPayload)
  documentDeleted(event: EventEnvelope, manager: EntityManager): Promise<void> {
    return this.keep(event, manager);
  }

  @OnEvent(ChatEvents.messageCreated, AnyEventPayload)
  messageCreated(event: EventEnvelope, manager: EntityManager): Promise<void> {
    return this.keep(event, manager);
  }

  @OnEvent(AssignmentEvents.taskClaimed, AnyEventPayload)
  taskClaimed(event: EventEnvelope, manager: EntityManager): Promise<void> {
    return this.keep(event, manager);
  }

  @OnEvent(AssignmentEvents.taskUnclaimed, AnyEventPayload)
  taskUnclaimed(event: EventEnvelope, manager: EntityManager): Promise<void> {
    return this.keep(event, manager);
  }

  @OnEvent(AssignmentEvents.taskStarted, AnyEventPayload)
  taskStarted(event: EventEnvelope, manager: EntityManager): Promise<void> {
    return this.keep(event, manager);
  }

  @OnEvent(AssignmentEvents.taskCompleted, AnyEventPayload)
  taskCompleted(event: EventEnvelope, manager: EntityManager): Promise<void> {
    return this.keep(event, manager);
  }

  @OnEvent(AssignmentEvents.taskCancelled, AnyEventPayload)
  taskCancelled(event: EventEnvelope, manager: EntityManager): Promise<void> {
    return this.keep(event, manager);
  }

  @OnEvent(AssignmentEvents.taskReassigned, AnyEventPayload)
  taskReassigned(event: EventEnvelope, manager: EntityManager): Promise<void> {
    return this.keep(event, manager);
  }

  @OnEvent(AssignmentEvents.taskEscalated, AnyEventPayload)
  taskEscalated(event: EventEnvelope, manager: EntityManager): Promise<void> {
    return this.keep(event, manager);
  }

  private async keep(event: EventEnvelope, manager: EntityManager): Promise<void> {
    const body = JSON.stringify({ type: event.subject, timestamp: event.occurred_at, data: event.data });
    const queued: unknown[] = await manager.query(
      `WITH ev AS (
         INSERT INTO webhook_events (id, type, occurred_at, body) VALUES ($1, $2, $3, $4)
         ON CONFLICT (id) DO NOTHING RETURNING id, type
       )
       INSERT INTO webhook_messages (endpoint_id, event_id, type, next_attempt_at)
       SELECT e.id, ev.id, ev.type, clock_timestamp()
         FROM ev JOIN webhook_endpoints e
           ON NOT e.disabled AND (e.event_types @> ARRAY['*'] OR e.event_types @> ARRAY[ev.type])
       ON CONFLICT DO NOTHING
       RETURNING id`,
      [event.id, event.subject, event.occurred_at, body],
    );
    if (queued.length > 0) this.worker.nudge();
  }
}
