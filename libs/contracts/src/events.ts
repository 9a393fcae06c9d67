import { AclEvents } from './acl';
import { AssignmentEvents } from './assignment';
import { DocumentsEvents } from './documents';
import { ChatEvents } from './notifications';
import type { MessageMeta } from './rpc';

/**
 * Durable events (docs/api/contract.md §5). They are kept in one JetStream stream; it lists these subjects
 * exactly, never a wildcard, so request/reply subjects of the same shape are never captured.
 */
export const EVENT_SUBJECTS = [
  AclEvents.correspondentInvited,
  DocumentsEvents.documentDeleted,
  AssignmentEvents.taskClaimed,
  AssignmentEvents.taskEscalated,
  ChatEvents.messageCreated,
  AssignmentEvents.taskUnclaimed,
  AssignmentEvents.taskStarted,
  AssignmentEvents.taskCompleted,
  AssignmentEvents.taskCancelled,
  AssignmentEvents.taskReassigned,
  AclEvents.userTokensRevoked,
] as const;
export type EventSubject = (typeof EVENT_SUBJECTS)[number];

export const EVENTS_STREAM = 'EVENTS';

/** The wire shape of a durable event; consumers are idempotent on `id`. */
export interface EventEnvelope<T = unknown> {
  id: string;
  subject: string;
  occurred_at: string;
  data: T;
  meta: MessageMeta;
}
