import type {
  WebhookAttemptView,
  WebhookEndpointView,
  WebhookEndpointWithSecretView,
  WebhookMessageView,
} from '@media/contracts';
import type { WebhookEndpoint } from './webhook-endpoint.entity';
import type { WebhookMessage } from './webhook-message.entity';

export type { WebhookAttemptView, WebhookEndpointView, WebhookEndpointWithSecretView, WebhookMessageView };

export function toWebhookEndpointView(row: WebhookEndpoint): WebhookEndpointView {
  return {
    id: row.id,
    url: row.url,
    description: row.description,
    event_types: row.eventTypes,
    disabled: row.disabled,
    disabled_reason: row.disabledReason,
    created_at: row.createdAt.toISOString(),
    updated_at: row.updatedAt.toISOString(),
  };
}

/** A message is listed under its event's id: the `webhook-id` the receiver saw. */
export function toWebhookMessageView(row: WebhookMessage): WebhookMessageView {
  return {
    id: row.eventId,
    type: row.type,
    status: row.status,
    attempts: row.attempts,
    next_attempt_at: row.status === 'pending' ? (row.nextAttemptAt?.toISOString() ?? null) : null,
    last_status_code: row.lastStatusCode,
    created_at: row.createdAt.toISOString(),
  };
}

/** An attempt row as stored (raw SQL). */
export interface AttemptRow {
  at: Date;
  status_code: number | null;
  duration_ms: number;
  error: string | null;
  response_body: string;
}

export function toWebhookAttemptView(row: AttemptRow): WebhookAttemptView {
  return {
    at: row.at.toISOString(),
    status_code: row.status_code,
    duration_ms: row.duration_ms,
    error: row.error,
    response_body: row.response_body,
  };
}
