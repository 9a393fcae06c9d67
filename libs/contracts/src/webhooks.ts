import type { EventSubject } from './events';

/**
 * Outbound webhooks (docs/api/webhooks.md): the catalogue of event types an endpoint may
 * subscribe to, each with the JSON Schema of the `data` it carries, and what the API answers.
 */

/** A JSON Schema (draft 2020-12) as plain data. */
export type JsonSchema = { readonly [key: string]: unknown };

const uuid = { type: 'string', format: 'uuid' } as const;
const nullableUuid = { type: ['string', 'null'], format: 'uuid' } as const;
const dateTime = { type: 'string', format: 'date-time' } as const;
const nullableText = { type: ['string', 'null'] } as const;

/** What every task event carries (`TaskEventBase`). */
const TASK_BASE = {
  task_id: uuid,
  status: { type: 'string', enum: ['OPEN', 'IN_PROGRESS', 'COMPLETED', 'CANCELLED'] },
  assigned_to: nullableUuid,
  actor_id: nullableUuid,
  workflow_node_code: { type: 'string' },
  node_preview_name: { type: 'string' },
  priority: { type: 'string' },
  due_at: { type: ['string', 'null'], format: 'date-time' },
  escalation_level: { type: 'integer', minimum: 0 },
  entity_type: nullableText,
  entity_id: nullableText,
  entity_reference: nullableText,
} as const;

function object(properties: Record<string, unknown>): JsonSchema {
  return {
    $schema: 'https://json-schema.org/draft/2020-12/schema',
    type: 'object',
    properties,
    required: Object.keys(properties),
  };
}

const task = (extra: Record<string, unknown> = {}) => object({ ...TASK_BASE, ...extra });

/** One event type of the catalogue. */
export interface WebhookEventTypeView {
  type: string;
  description: string;
  schema: JsonSchema;
}

/**
 * Every durable event the apps publish, with the schema of its `data` (the payload interfaces of
 * the same name in this library: `CorrespondentInvitedEvent`, `TaskClaimedEvent`, ...). Keyed by
 * `EventSubject`, so an event added to `EVENT_SUBJECTS` fails the build until it is described here.
 */
export const WEBHOOK_EVENT_TYPES: { readonly [T in EventSubject]: Omit<WebhookEventTypeView, 'type'> } = {
  'acl.correspondent.invited': {
    description: 'A correspondent was invited (an INVITED user exists until the invitation is accepted).',
    schema: object({
      user_id: uuid,
      email: { type: 'string', format: 'email' },
      name: { type: 'string' },
      invited_by: uuid,
      expires_at: dateTime,
    }),
  },
  'acl.user.tokens-revoked': {
    description:
      "A user's access tokens below `ver` were revoked (disabled, a role, group or permission taken away, or a revoke).",
    schema: object({ user_id: uuid, ver: { type: 'integer', minimum: 1 } }),
  },
  'documents.document.deleted': {
    description: 'A document was deleted (its file is gone; links to it are detached).',
    schema: object({ document_id: uuid, uploaded_by: uuid, deleted_by: uuid, deleted_at: dateTime }),
  },
  'assignment.task.claimed': {
    description: 'A task was claimed by (or for) a user.',
    schema: task({ assigned_to: uuid, claimed_by: uuid }),
  },
  'assignment.task.escalated': {
    description: 'A task went up one or more escalation levels (one event per pass of the job).',
    schema: task({
      from_level: { type: 'integer', minimum: 0 },
      to_level: { type: 'integer', minimum: 0 },
    }),
  },
  'chat.message.created': {
    description: 'A chat message was posted in a room.',
    schema: object({
      message_id: uuid,
      room_id: uuid,
      room_name: { type: 'string' },
      sender: uuid,
      body: { type: 'string' },
      created_at: dateTime,
      recipient_ids: { type: 'array', items: uuid },
    }),
  },
  'assignment.task.unclaimed': {
    description: 'A held task was given back (nobody holds it now).',
    schema: task({ previous_assignee: uuid }),
  },
  'assignment.task.started': {
    description: 'Work on a task started.',
    schema: task(),
  },
  'assignment.task.completed': {
    description: 'A task was completed.',
    schema: task({ completed_at: dateTime }),
  },
  'assignment.task.cancelled': {
    description: 'A task was cancelled.',
    schema: task(),
  },
  'assignment.task.reassigned': {
    description: 'A held task was given to another user, its status kept.',
    schema: task({ assigned_to: uuid, previous_assignee: uuid, reassigned_by: uuid }),
  },
};

/** Subscribes an endpoint to every event type, present and future. */
export const ALL_EVENT_TYPES = '*';
export const WEBHOOK_MAX_EVENT_TYPES = 50;
export const WEBHOOK_URL_MAX_LENGTH = 2048;

export type WebhookMessageStatus = 'pending' | 'delivered' | 'failed';

/** An endpoint as the API shows it; `secret` only in the answers to create and rotate-secret. */
export interface WebhookEndpointView {
  id: string;
  url: string;
  description: string | null;
  event_types: string[];
  disabled: boolean;
  disabled_reason: string | null;
  created_at: string;
  updated_at: string;
}

export interface WebhookEndpointWithSecretView extends WebhookEndpointView {
  /** `whsec_` + base64 of 32 random bytes. */
  secret: string;
}

export interface CreateWebhookEndpointRequest {
  url: string;
  description?: string | null;
  event_types: string[];
  disabled?: boolean;
}

export type UpdateWebhookEndpointRequest = Partial<CreateWebhookEndpointRequest>;

export interface WebhookMessageView {
  /** The event id: the `webhook-id` of every attempt. */
  id: string;
  type: string;
  status: WebhookMessageStatus;
  attempts: number;
  next_attempt_at: string | null;
  last_status_code: number | null;
  created_at: string;
}

export interface WebhookAttemptView {
  at: string;
  status_code: number | null;
  duration_ms: number;
  error: string | null;
  /** At most the first 1 KiB of what the endpoint answered. */
  response_body: string;
}

export interface ReplayWebhookRequest {
  since: string;
}

/** Error codes of the webhooks feature beyond the common ones. */
export const WebhookErrorCodes = {
  endpointDisabled: 'endpoint_disabled',
} as const;
