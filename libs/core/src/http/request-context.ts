import { AsyncLocalStorage } from 'node:async_hooks';

/** Who an audit entry names as having made the change (CONTRACT §8.1). */
export interface AuditActorContext {
  type: 'user' | 'system';
  id: string;
  name?: string | null;
}

/** What the audit part of a request context carries beyond the caller (set by consumers, jobs, services). */
export interface AuditContext {
  /** Overrides the caller: an event consumer or a job (`{type: system, id: "<app>:<name>"}`). */
  actor?: AuditActorContext;
  /** The event id a consumed event's changes were caused by. */
  cause?: string;
  /** Business verbs by resource type (`{task: "task.claimed"}`) replacing `<type>.created|updated|deleted`. */
  actions?: Record<string, string>;
}

/** Who and which request the current code runs for; carried across NATS hops in `meta`. */
export interface RequestContext {
  request_id?: string;
  user_id?: string;
  /** The token version of the caller's access token (refused downstream once revoked). */
  user_ver?: number;
  /** The caller's name from its token (named by the audit entries of its changes). */
  user_name?: string;
  /** Who the audit entries of this code's changes name when it is not the caller (consumers, jobs). */
  audit?: AuditContext;
}

export const requestContext = new AsyncLocalStorage<RequestContext>();

export function currentContext(): RequestContext {
  return requestContext.getStore() ?? {};
}
