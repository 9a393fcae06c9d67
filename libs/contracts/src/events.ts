import { AclEvents, type CorrespondentInvitedEvent, type UserTokensRevokedEvent } from './acl';
import {
  AssignmentEvents,
  type TaskCancelledEvent,
  type TaskClaimedEvent,
  type TaskCompletedEvent,
  type TaskEscalatedEvent,
  type TaskReassignedEvent,
  type TaskStartedEvent,
  type TaskUnclaimedEvent,
} from './assignment';
import { DocumentsEvents, type DocumentDeletedEvent } from './documents';
import { ChatEvents, type ChatMessageCreatedEvent } from './notifications';
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

/** Every event subject with its payload (`data`): the AsyncAPI document's messages are generated from it. */
export interface EventMap {
  [AclEvents.correspondentInvited]: CorrespondentInvitedEvent;
  [DocumentsEvents.documentDeleted]: DocumentDeletedEvent;
  [AssignmentEvents.taskClaimed]: TaskClaimedEvent;
  [AssignmentEvents.taskEscalated]: TaskEscalatedEvent;
  [ChatEvents.messageCreated]: ChatMessageCreatedEvent;
  [AssignmentEvents.taskUnclaimed]: TaskUnclaimedEvent;
  [AssignmentEvents.taskStarted]: TaskStartedEvent;
  [AssignmentEvents.taskCompleted]: TaskCompletedEvent;
  [AssignmentEvents.taskCancelled]: TaskCancelledEvent;
  [AssignmentEvents.taskReassigned]: TaskReassignedEvent;
  [AclEvents.userTokensRevoked]: UserTokensRevokedEvent;
}
