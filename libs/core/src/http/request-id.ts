import { randomUUID } from 'node:crypto';
import type { IncomingMessage, ServerResponse } from 'node:http';

export const REQUEST_ID_HEADER = 'x-request-id';
const SAFE_ID = /^[A-Za-z0-9._:-]{1,128}$/;

/** The caller's X-Request-Id when it is sane (1–128 of `A-Za-z0-9._:-`), else a new UUID. */
export function pickRequestId(req: Pick<IncomingMessage, 'headers'>): string {
  const given = req.headers[REQUEST_ID_HEADER];
  return typeof given === 'string' && SAFE_ID.test(given) ? given : randomUUID();
}

/** Picks the request's id and echoes it on the response. */
export function requestId(req: IncomingMessage, res: ServerResponse): string {
  const id = pickRequestId(req);
  res.setHeader('X-Request-Id', id);
  return id;
}
