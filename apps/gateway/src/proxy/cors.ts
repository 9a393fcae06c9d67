import type { IncomingMessage, ServerResponse } from 'node:http';
import { DomainError } from '@media/core';
import { sendError } from './errors';

/** A CORS preflight: OPTIONS with `Access-Control-Request-Method`. */
export function isPreflight(req: IncomingMessage): boolean {
  return req.method === 'OPTIONS' && req.headers['access-control-request-method'] !== undefined;
}

/** The request's `Origin` when CORS_ORIGINS lists it, else undefined. */
export function allowedOrigin(req: IncomingMessage, origins: ReadonlySet<string>): string | undefined {
  const origin = req.headers.origin;
  return origin !== undefined && origins.has(origin) ? origin : undefined;
}

/** The CORS headers of a forwarded answer to an allowed origin. */
export function exposeToOrigin(res: ServerResponse, origin: string): void {
  res.setHeader('Access-Control-Allow-Origin', origin);
  res.setHeader(
    'Access-Control-Expose-Headers',
    // The tus headers, so that a browser's tus client (tus-js-client, Uppy) can resume.
    'X-Request-Id, Retry-After, ETag, Location, Idempotent-Replayed, ' +
      'Tus-Resumable, Tus-Version, Tus-Extension, Tus-Max-Size, Tus-Checksum-Algorithm, ' +
      'Upload-Offset, Upload-Length, Upload-Expires, Upload-Metadata',
  );
  res.setHeader('Vary', 'Origin');
}

/**
 * Answers a CORS preflight here (CORS_ORIGINS), never forwarded: 204 with what the origin may
 * send, or 403 for an origin not listed. Returns the error code of a refusal.
 */
export function answerPreflight(
  req: IncomingMessage,
  res: ServerResponse,
  requestId: string,
  origin: string | undefined,
  securityHeaders: Record<string, string>,
): string | undefined {
  res.setHeader('X-Request-Id', requestId);
  res.setHeader('Vary', 'Origin');
  if (!origin) {
    sendError(res, new DomainError(403, 'forbidden', 'This origin may not call the API.'), securityHeaders);
    return 'forbidden';
  }
  const asked = req.headers['access-control-request-headers'];
  res.writeHead(204, {
    ...securityHeaders,
    'Access-Control-Allow-Origin': origin,
    'Access-Control-Allow-Methods': 'GET, HEAD, POST, PUT, PATCH, DELETE',
    'Access-Control-Allow-Headers':
      asked && /^[\w\-, ]{1,1000}$/.test(asked)
        ? asked
        : 'Authorization, Content-Type, X-Request-Id, Idempotency-Key, If-Match',
    'Access-Control-Max-Age': '600',
  });
  res.end();
  return undefined;
}
