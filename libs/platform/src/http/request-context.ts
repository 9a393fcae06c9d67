import { AsyncLocalStorage } from 'node:async_hooks';

/** Who and which request the current code runs for; carried across NATS hops in `meta`. */
export interface RequestContext {
  request_id?: string;
  user_id?: string;
  /** The token version of the caller's access token (refused downstream once revoked). */
  user_ver?: number;
}

export const requestContext = new AsyncLocalStorage<RequestContext>();

export function currentContext(): RequestContext {
  return requestContext.getStore() ?? {};
}
