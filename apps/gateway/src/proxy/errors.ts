import type { IncomingMessage, ServerResponse } from 'node:http';
import { DomainError, lingerReadingAtMost } from '@media/core';

/** Errors only the gateway raises; their codes are docs/api/contract.md §0 and §2's. */
export class RouteNotFound extends DomainError {
  constructor(segment: string) {
    super(404, 'route_not_found', `No route for /${segment}`);
  }
}

export class InvalidPath extends DomainError {
  constructor() {
    super(400, 'invalid_path', 'The request path must be an absolute path without "." or ".." segments.');
  }
}

export class UpstreamTimeout extends DomainError {
  constructor(app: string) {
    super(504, 'upstream_timeout', `The ${app} service did not answer in time.`);
  }
}

/** A request body that trickled in slower than MIN_BODY_RATE. */
export class BodyTooSlow extends DomainError {
  constructor(rate: number) {
    super(408, 'request_timeout', `The request body arrived slower than ${rate} bytes per second.`);
  }
}

export class InternalError extends DomainError {
  constructor() {
    super(500, 'internal_error', 'The gateway failed to handle the request.');
  }
}

function body(error: DomainError): string {
  return JSON.stringify({ detail: error.detail, code: error.code });
}

function writeErrorHead(
  res: ServerResponse,
  error: DomainError,
  extraHeaders: Record<string, string>,
): string {
  const payload = body(error);
  res.writeHead(error.status, {
    // An error is about this one request: never kept by a cache (extraHeaders may say otherwise).
    'Cache-Control': 'no-store',
    ...error.headers,
    ...extraHeaders,
    'Content-Type': 'application/json; charset=utf-8',
    'Content-Length': Buffer.byteLength(payload),
  });
  return payload;
}

/**
 * Answers with the contract's error body. X-Request-Id is already on `res` (set when the
 * request arrived), so gateway-made errors carry it like forwarded responses do.
 */
export function sendError(
  res: ServerResponse,
  error: DomainError,
  extraHeaders: Record<string, string> = {},
): void {
  res.end(writeErrorHead(res, error, extraHeaders));
}

/** How long a refused upload is still read (and discarded) so the client sees the answer. */
const LINGER_MS = 2_000;
/**
 * What is still read of a refused body once its limit was: enough for the last bytes of a body
 * just over its limit (the connection then closes at once), far less than a flood's megabyte.
 */
const LINGER_TAIL_BYTES = 64 * 1024;

/**
 * Answers a request whose body is still arriving (too large, or refused before it was read),
 * then closes the connection. The whole answer is written at once (Content-Length tells the
 * client it is complete), but the response is only ended, and so the socket only closed, once
 * the rest of the upload has been read and discarded, at most `budget` bytes or LINGER_MS. Past
 * that, at most LINGER_TAIL_BYTES more are read (docs/api/contract.md §2: "after reading at most
 * the limit"); a longer body (or one declared longer than both) is left unread on the half-closed
 * socket until LINGER_MS ends, since closing a socket with unread input makes the kernel send a
 * reset, and the client would see that instead of the status.
 */
export function refuseUpload(
  req: IncomingMessage,
  res: ServerResponse,
  error: DomainError,
  budget: number,
  extraHeaders: Record<string, string> = {},
): void {
  res.write(writeErrorHead(res, error, { ...extraHeaders, Connection: 'close' }));
  // A declared body too long to end within the budget and the tail is not read at all: its
  // first bytes would only be dropped (a flood of megabyte bodies costs no reading).
  if (Number(req.headers['content-length']) > budget + LINGER_TAIL_BYTES) {
    lingerReadingAtMost(req, 0);
    res.end();
    return;
  }
  let seen = 0;
  const finish = () => {
    clearTimeout(timer);
    req.off('data', onData);
    // The limit was read (or the time ran out): a body that ends within LINGER_TAIL_BYTES more is
    // read to its end, a longer one is not read any further.
    if (!req.complete) lingerReadingAtMost(req, LINGER_TAIL_BYTES);
    if (!res.writableEnded) res.end();
  };
  const onData = (chunk: Buffer) => {
    seen += chunk.length;
    if (seen > budget) finish();
  };
  const timer = setTimeout(finish, LINGER_MS);
  req.unpipe();
  req.on('data', onData);
  req.once('end', finish);
  req.once('close', finish);
  req.resume();
}

export { writeSocketError } from '@media/core';
