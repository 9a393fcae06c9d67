import type { EventEnvelope } from '@media/contracts';
import { isUuid } from '@media/core';

export type EventDelivery = (event: EventEnvelope) => Promise<void>;

/** Applies several events at once, all or none (one transaction). */
export type EventBatchDelivery = (events: EventEnvelope[]) => Promise<void>;

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
  /**
   * Applies the messages that arrived while the previous ones were being applied together (at
   * most CONSUME_OPTIONS.max_messages), instead of one at a time; when it throws, each of them
   * is delivered alone, so the failing one is retried and dead-lettered by itself. JetStream
   * delivery only: the in-process bus delivers one event at a time.
   */
  deliverMany?: EventBatchDelivery;
}

/** Nanoseconds per millisecond: JetStream durations are in nanoseconds. */
export const NS = 1_000_000;
const MAX_RETRY_DELAY_MS = 5 * 60_000;

/** The delay before the consume loop's attempt `attempt` (from 1): 250 ms doubling, at most 2 s. */
export function restartDelayMs(attempt: number): number {
  return Math.min(2_000, 250 * 2 ** Math.max(0, attempt - 1));
}

export const errorText = (error: unknown) => (error instanceof Error ? error.message : String(error));

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
