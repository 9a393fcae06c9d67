import { AsyncLocalStorage } from 'node:async_hooks';
import type { AuditContext } from '../audit/context';

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
