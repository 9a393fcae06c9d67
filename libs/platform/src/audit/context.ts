import { EventSubscriber, type EntitySubscriberInterface, type TransactionStartEvent } from 'typeorm';
import {
  currentContext,
  requestContext,
  type AuditActorContext,
  type AuditContext,
  type RequestContext,
} from '@media/core';

/**
 * The transaction-local setting the audit row triggers read (`audit.context`), in the JSON the
 * trigger function `audit_record()` expects.
 */
export interface AuditContextSetting {
  actor_type: 'user' | 'system';
  actor_id: string;
  actor_name: string | null;
  request_id: string | null;
  cause: string | null;
  actions?: Record<string, string>;
}

/**
 * The audit context of the code running now: the actor set by a consumer or job, else the
 * authenticated caller (named from its token), else the app itself (an unauthenticated request
 * such as a login, or a call over NATS without a user).
 */
export function auditContextNow(
  app: string,
  context: RequestContext = currentContext(),
): AuditContextSetting {
  const audit = context.audit;
  const actor: AuditActorContext =
    audit?.actor ??
    (context.user_id
      ? { type: 'user', id: context.user_id, name: context.user_name ?? null }
      : { type: 'system', id: app, name: null });
  return {
    actor_type: actor.type,
    actor_id: actor.id,
    actor_name: actor.name ?? null,
    request_id: context.request_id ?? null,
    cause: audit?.cause ?? null,
    ...(audit?.actions ? { actions: audit.actions } : {}),
  };
}

/**
 * The `audit.context` JSON for a single-statement write run outside a transaction: the statement
 * sets it itself (`set_config('audit.context', $n, true)` in its outer SELECT, which runs before
 * the AFTER row triggers fire at the statement's end), saving a transaction's three round trips.
 */
export function auditContextJson(app: string, actions?: Record<string, string>): string {
  const setting = auditContextNow(app);
  return JSON.stringify(actions ? { ...setting, actions: { ...setting.actions, ...actions } } : setting);
}

/** Runs `fn` with `audit` merged into the current context (for the transactions `fn` starts). */
export function withAudit<T>(audit: AuditContext, fn: () => T): T {
  const context = currentContext();
  const merged: AuditContext = {
    ...context.audit,
    ...audit,
    actions: audit.actions ? { ...context.audit?.actions, ...audit.actions } : context.audit?.actions,
  };
  return requestContext.run({ ...context, audit: merged }, fn);
}

/**
 * Runs `fn` as a background job of the app: its changes name `{type: system, id: "<app>:<job>"}`
 * and no request; `actions` names its business verbs by resource type.
 */
export function asAuditJob<T>(app: string, job: string, fn: () => T, actions?: Record<string, string>): T {
  const actor: AuditActorContext = { type: 'system', id: `${app}:${job}`, name: null };
  return requestContext.run({ audit: { actor, ...(actions ? { actions } : {}) } }, fn);
}

/**
 * Sets `audit.context` at the start of every transaction from the AsyncLocalStorage context, so
 * the row triggers of the audited tables name the actor, request and cause of the change in the
 * change's own transaction. One round trip per transaction (measured in docs/benchmarks.md).
 */
@EventSubscriber()
export class AuditContextSubscriber implements EntitySubscriberInterface {
  async afterTransactionStart(event: TransactionStartEvent): Promise<void> {
    const runner = event.queryRunner as TransactionStartEvent['queryRunner'] & { transactionDepth?: number };
    // A savepoint (a nested transaction) keeps the outer transaction's context.
    if ((runner.transactionDepth ?? 1) > 1) return;
    const app = String((event.connection.options as { applicationName?: string }).applicationName ?? 'app');
    await runner.query(`SELECT set_config('audit.context', $1, true)`, [
      JSON.stringify(auditContextNow(app)),
    ]);
  }
}
