import { Inject, Injectable } from '@nestjs/common';
import { InjectDataSource } from '@nestjs/typeorm';
import { randomUUID } from 'node:crypto';
import { isIP } from 'node:net';
import {
  ALL_EVENT_TYPES,
  WEBHOOK_EVENT_TYPES,
  type ValidationIssue,
  type WebhookEventTypeView,
} from '@media/contracts';
import { changedRows, InjectConfig } from '@media/kernel';
import { newestFirst, Paginator, type Page } from '@media/http';
import { NotFound, UpstreamUnavailable, ValidationFailed } from '@media/core';
import type { Request } from 'express';
import type { DataSource } from 'typeorm';
import type { ChatNotificationsConfig } from '../config';
import { forbiddenAddresses, hostOf, urlProblem } from './address-policy';
import { ResolverService } from './resolver.service';
import type { CreateEndpointDto } from './dto/create-endpoint.dto';
import type { ListEndpointsQuery } from './dto/list-endpoints.query';
import type { UpdateEndpointDto } from './dto/update-endpoint.dto';
import { newEndpointSecret, SecretBox } from './secret-box';
import { WebhookEndpoint } from './webhook-endpoint.entity';
import {
  toWebhookEndpointView,
  type WebhookEndpointView,
  type WebhookEndpointWithSecretView,
} from './webhooks.view';

/** The catalogue, in the order of the contracts' event list. */
export const EVENT_TYPES: WebhookEventTypeView[] = Object.entries(WEBHOOK_EVENT_TYPES).map(
  ([type, { description, schema }]) => ({ type, description, schema }),
);
const KNOWN_TYPES = new Set(EVENT_TYPES.map((t) => t.type));

/** Webhook endpoints (docs/api/webhooks.md): their URL rules, their sealed secrets. */
@Injectable()
export class EndpointsService {
  private readonly box?: SecretBox;

  constructor(
    @InjectDataSource() private readonly dataSource: DataSource,
    @Inject(Paginator) private readonly paginator: Paginator,
    @Inject(ResolverService) private readonly resolver: ResolverService,
    @InjectConfig() private readonly config: ChatNotificationsConfig,
  ) {
    const key = config.webhooks.secretsKey;
    if (key) this.box = new SecretBox(key);
  }

  eventTypes(): WebhookEventTypeView[] {
    return EVENT_TYPES;
  }

  async create(dto: CreateEndpointDto): Promise<WebhookEndpointWithSecretView> {
    const box = this.secretBox();
    await this.checkRequest(dto.url, dto.event_types);
    const id = randomUUID();
    const secret = newEndpointSecret();
    await this.dataSource.transaction((manager) =>
      manager.query(
        `INSERT INTO webhook_endpoints (id, url, description, event_types, disabled, secret_sealed)
         VALUES ($1, $2, $3, $4, $5, $6)`,
        [id, dto.url, dto.description ?? null, dto.event_types, dto.disabled ?? false, box.seal(secret, id)],
      ),
    );
    return { ...(await this.get(id)), secret };
  }

  async list(query: ListEndpointsQuery, req: Request): Promise<Page<WebhookEndpointView>> {
    const qb = this.dataSource.getRepository(WebhookEndpoint).createQueryBuilder('e');
    return this.paginator.paginate(
      qb,
      newestFirst('e.created_at', (e) => e.createdAt),
      query,
      req,
      toWebhookEndpointView,
    );
  }

  async get(id: string): Promise<WebhookEndpointView> {
    return toWebhookEndpointView(await this.row(id));
  }

  async update(id: string, dto: UpdateEndpointDto): Promise<WebhookEndpointView> {
    await this.row(id);
    await this.checkRequest(dto.url, dto.event_types);
    const sets: string[] = [];
    const values: unknown[] = [id];
    const set = (column: string, value: unknown) => {
      values.push(value);
      sets.push(`${column} = $${values.length}`);
    };
    if (dto.url !== undefined) set('url', dto.url);
    if (dto.description !== undefined) set('description', dto.description);
    if (dto.event_types !== undefined) set('event_types', dto.event_types);
    if (dto.disabled !== undefined) {
      set('disabled', dto.disabled);
      // Enabled again: its past failures no longer count towards disabling it.
      if (!dto.disabled) sets.push('disabled_reason = NULL', 'failing_since = NULL');
      else sets.push(`disabled_reason = COALESCE(disabled_reason, 'Disabled by an administrator')`);
    }
    if (sets.length > 0) {
      await this.dataSource.transaction((manager) =>
        manager.query(
          `UPDATE webhook_endpoints SET ${sets.join(', ')}, updated_at = clock_timestamp() WHERE id = $1`,
          values,
        ),
      );
    }
    return this.get(id);
  }

  async remove(id: string): Promise<void> {
    const deleted = changedRows(
      await this.dataSource.transaction((manager) =>
        manager.query(`DELETE FROM webhook_endpoints WHERE id = $1 RETURNING id`, [id]),
      ),
    );
    if (deleted.length === 0) throw new NotFound('Webhook endpoint', id);
  }

  /**
   * A new secret; the old one keeps signing (deliveries carry both signatures) for
   * WEBHOOK_SECRET_OVERLAP, so receivers can switch without missing a delivery.
   */
  async rotateSecret(id: string): Promise<WebhookEndpointWithSecretView> {
    const box = this.secretBox();
    const secret = newEndpointSecret();
    const rotated = changedRows(
      await this.dataSource.transaction((manager) =>
        manager.query(
          `UPDATE webhook_endpoints
          SET previous_secret_sealed = secret_sealed,
              previous_secret_until = clock_timestamp() + $3 * interval '1 millisecond',
              secret_sealed = $2, updated_at = clock_timestamp()
        WHERE id = $1 RETURNING id`,
          [id, box.seal(secret, id), this.config.webhooks.secretOverlap],
        ),
      ),
    );
    if (rotated.length === 0) throw new NotFound('Webhook endpoint', id);
    return { ...(await this.get(id)), secret };
  }

  private async row(id: string): Promise<WebhookEndpoint> {
    const row = await this.dataSource.getRepository(WebhookEndpoint).findOneBy({ id: id.toLowerCase() });
    if (!row) throw new NotFound('Webhook endpoint', id);
    return row;
  }

  private secretBox(): SecretBox {
    if (!this.box)
      throw new UpstreamUnavailable('Webhooks are not configured: WEBHOOK_SECRETS_KEY is not set.');
    return this.box;
  }

  /** The event types (known, or `["*"]` alone) and the URL (its rules, then its addresses). */
  private async checkRequest(url: string | undefined, eventTypes: string[] | undefined): Promise<void> {
    const issues: ValidationIssue[] = [];
    eventTypes?.forEach((type, i) => {
      const wildcard = type === ALL_EVENT_TYPES && eventTypes.length === 1;
      if (!wildcard && !KNOWN_TYPES.has(type)) {
        issues.push({
          loc: ['body', 'event_types', String(i)],
          msg: type === ALL_EVENT_TYPES ? '"*" must be the only type' : 'not an event type of the catalogue',
          type: 'enum',
        });
      }
    });
    if (url !== undefined) {
      const rules = this.config.webhooks;
      const problem = urlProblem(url, rules);
      if (problem) issues.push({ loc: ['body', 'url'], msg: problem, type: 'value_error' });
      else {
        const host = hostOf(new URL(url));
        const bad = await forbiddenAddresses(host, rules, this.resolver.resolve);
        if (bad.length > 0) {
          issues.push({
            loc: ['body', 'url'],
            msg:
              bad[0] === host && !isIP(host)
                ? `${host} does not resolve`
                : `${host} resolves to an address webhooks may not reach (${bad.join(', ')})`,
            type: 'url_not_allowed',
          });
        }
      }
    }
    if (issues.length > 0) throw new ValidationFailed(issues);
  }
}
