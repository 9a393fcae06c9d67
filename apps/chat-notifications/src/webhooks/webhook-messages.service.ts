import { Inject, Injectable } from '@nestjs/common';
import { InjectDataSource } from '@nestjs/typeorm';
import { WebhookErrorCodes } from '@media/contracts';
import { Conflict, NotFound } from '@media/core';
import { newestFirst, Paginator, type Page } from '@media/http';
import type { Request } from 'express';
import type { DataSource } from 'typeorm';
import type { ListMessagesQuery } from './dto/list-messages.query';
import { WebhookMessage } from './webhook-message.entity';
import { WebhooksWorker } from './webhooks.worker';
import {
  toWebhookAttemptView,
  toWebhookMessageView,
  type AttemptRow,
  type WebhookAttemptView,
  type WebhookMessageView,
} from './webhooks.view';

/** An endpoint's messages and attempts, and sending them again (docs/api/webhooks.md). */
@Injectable()
export class WebhookMessagesService {
  constructor(
    @InjectDataSource() private readonly dataSource: DataSource,
    @Inject(Paginator) private readonly paginator: Paginator,
    @Inject(WebhooksWorker) private readonly worker: WebhooksWorker,
  ) {}

  async list(endpointId: string, query: ListMessagesQuery, req: Request): Promise<Page<WebhookMessageView>> {
    await this.endpoint(endpointId);
    const qb = this.dataSource
      .getRepository(WebhookMessage)
      .createQueryBuilder('m')
      .where('m.endpoint_id = :endpointId', { endpointId: endpointId.toLowerCase() });
    return this.paginator.paginate(
      qb,
      newestFirst('m.created_at', (m) => m.createdAt),
      query,
      req,
      toWebhookMessageView,
    );
  }

  /** Every attempt of one message, oldest first. */
  async attempts(endpointId: string, eventId: string): Promise<WebhookAttemptView[]> {
    const message = await this.message(endpointId, eventId);
    const rows: AttemptRow[] = await this.dataSource.query(
      `SELECT at, status_code, duration_ms, error, response_body FROM webhook_attempts
        WHERE message_id = $1 ORDER BY at, id`,
      [message.id],
    );
    return rows.map(toWebhookAttemptView);
  }

  /** Sends one message again now, with a fresh retry schedule (409 on a disabled endpoint). */
  async retry(endpointId: string, eventId: string): Promise<WebhookMessageView> {
    await this.enabledEndpoint(endpointId);
    const message = await this.message(endpointId, eventId);
    await this.dataSource.query(
      `UPDATE webhook_messages
          SET status = 'pending', cycle_attempts = 0, next_attempt_at = clock_timestamp(),
              updated_at = clock_timestamp()
        WHERE id = $1`,
      [message.id],
    );
    this.worker.nudge();
    return toWebhookMessageView(await this.message(endpointId, eventId));
  }

  /**
   * Every event of the endpoint's types that occurred since `since` is sent again (the same
   * `webhook-id`), including events that came while it was disabled; answers how many.
   */
  async replay(endpointId: string, since: string): Promise<number> {
    const endpoint = await this.enabledEndpoint(endpointId);
    const rows: unknown[] = await this.dataSource.query(
      `INSERT INTO webhook_messages (endpoint_id, event_id, type, next_attempt_at)
       SELECT $1, ev.id, ev.type, clock_timestamp() FROM webhook_events ev
        WHERE ev.occurred_at >= $2 AND ($3::text[] @> ARRAY['*'] OR $3::text[] @> ARRAY[ev.type])
       ON CONFLICT (endpoint_id, event_id) DO UPDATE
          SET status = 'pending', cycle_attempts = 0, next_attempt_at = clock_timestamp(),
              updated_at = clock_timestamp()
       RETURNING id`,
      [endpoint.id, since, endpoint.event_types],
    );
    this.worker.nudge();
    return rows.length;
  }

  private async endpoint(id: string): Promise<{ id: string; disabled: boolean; event_types: string[] }> {
    const [row] = (await this.dataSource.query(
      `SELECT id, disabled, event_types FROM webhook_endpoints WHERE id = $1`,
      [id.toLowerCase()],
    )) as { id: string; disabled: boolean; event_types: string[] }[];
    if (!row) throw new NotFound('Webhook endpoint', id);
    return row;
  }

  private async enabledEndpoint(id: string): Promise<{ id: string; event_types: string[] }> {
    const endpoint = await this.endpoint(id);
    if (endpoint.disabled) {
      throw new Conflict(
        'The endpoint is disabled: enable it with PATCH {"disabled": false} first.',
        WebhookErrorCodes.endpointDisabled,
      );
    }
    return endpoint;
  }

  private async message(endpointId: string, eventId: string): Promise<WebhookMessage> {
    await this.endpoint(endpointId);
    const message = await this.dataSource
      .getRepository(WebhookMessage)
      .findOneBy({ endpointId: endpointId.toLowerCase(), eventId: eventId.toLowerCase() });
    if (!message) throw new NotFound('Webhook message', eventId);
    return message;
  }
}
