import type { Logger } from '@nestjs/common';
import type { EventEnvelope } from '@media/contracts';
import type { EventDelivery, SubscribeOptions } from './event-delivery';

interface InProcessHandler {
  deliver: EventDelivery;
  options: SubscribeOptions;
  maxDeliver: number;
  /** Failed deliveries per event id, so that a poison event is given up on here too. */
  failures: Map<string, number>;
}

/** Handlers of every app in this process, for the in-process bus (embedded default, no NATS). */
const inProcessHandlers = new Map<string, Map<string, InProcessHandler>>();

/** Registers a handler of `subject` under `durable`; the returned function removes it. */
export function subscribeInProcess(
  subject: string,
  durable: string,
  deliver: EventDelivery,
  options: SubscribeOptions,
  maxDeliver: number,
): () => void {
  const handlers = inProcessHandlers.get(subject) ?? new Map<string, InProcessHandler>();
  handlers.set(durable, { deliver, options, maxDeliver, failures: new Map() });
  inProcessHandlers.set(subject, handlers);
  return () => handlers.delete(durable);
}

/** Delivers `event` to every in-process handler of its subject, one after the other. */
export async function publishInProcess(event: EventEnvelope, logger: Logger): Promise<void> {
  for (const [durable, handler] of inProcessHandlers.get(event.subject) ?? []) {
    await deliverInProcess(durable, handler, event, logger);
  }
}

/**
 * In-process delivery (the outbox relay calls publish, and retries the row while it throws):
 * after EVENTS_MAX_DELIVER failures of one handler for one event, the event is dead-lettered
 * for that handler and no longer blocks the relay.
 */
async function deliverInProcess(
  durable: string,
  handler: InProcessHandler,
  event: EventEnvelope,
  logger: Logger,
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
    logger.error(
      { subject: event.subject, event_id: event.id, consumer: durable, deliveries, err: reason },
      'Event dead-lettered',
    );
  }
}
