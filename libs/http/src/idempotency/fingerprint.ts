import { createHash } from 'node:crypto';
import type { Request } from 'express';
import { ValidationFailed } from '@media/core';
import { uploadedFiles, UnexpectedFile } from '../http/multipart';
import { IDEMPOTENCY_KEY_HEADER, rawBodyDigest } from '../http/raw-body';
import { isFormBody } from '@media/kernel';

/** Where a problem with the header is reported in a 422. */
export const IDEMPOTENCY_KEY_LOC = ['header', IDEMPOTENCY_KEY_HEADER];

/** 1..255 visible ASCII characters (0x21-0x7E). */
const VALID_KEY = /^[\x21-\x7e]{1,255}$/;

/** The request's key, or undefined without the header; a malformed key is a 422 at the header. */
export function idempotencyKey(req: Request): string | undefined {
  const value = req.headers[IDEMPOTENCY_KEY_HEADER];
  if (value === undefined) return undefined;
  if (typeof value !== 'string' || !VALID_KEY.test(value)) {
    throw ValidationFailed.at(
      IDEMPOTENCY_KEY_LOC,
      'Idempotency-Key must be 1 to 255 visible ASCII characters',
      'value_error',
    );
  }
  return value;
}

/** JSON with object keys sorted, so two forms with the same fields in another order agree. */
function canonical(value: unknown): unknown {
  if (value instanceof UnexpectedFile) return { unexpected_file: value.filename };
  if (Array.isArray(value)) return value.map(canonical);
  if (typeof value === 'object' && value !== null) {
    return Object.fromEntries(
      Object.keys(value)
        .sort()
        .map((key) => [key, canonical((value as Record<string, unknown>)[key])]),
    );
  }
  return value;
}

/**
 * What identifies a request's body (docs/api/contract.md §7.1): SHA-256 of a JSON body's raw
 * bytes; for form and multipart bodies (whose bytes differ from one sending to the next by the
 * multipart boundary), SHA-256 of the parsed fields and of each file's name and bytes.
 */
export function bodyFingerprint(req: Request): string {
  const raw = rawBodyDigest(req);
  if (raw !== undefined) return raw;
  if (isFormBody(req.body)) {
    const files = uploadedFiles(req).map((file) => ({
      field: file.field,
      filename: file.filename,
      sha256: file.sha256,
    }));
    return createHash('sha256')
      .update(JSON.stringify({ fields: canonical(req.body), files }))
      .digest('hex');
  }
  // No body at all (or one the parser refused, which the validation answers 4xx anyway).
  return createHash('sha256').update('').digest('hex');
}

/**
 * Who is asking, for the key's scope: the token's subject, or the client's address on a
 * public route (Express's `req.ip` believes X-Forwarded-For only from TRUSTED_PROXIES).
 */
export function callerOf(req: Request & { user?: { id: string } }): string {
  return req.user ? `user:${req.user.id}` : `ip:${req.ip ?? req.socket.remoteAddress ?? 'unknown'}`;
}

/** The path as requested (not the route's template), without the query. */
export function requestPath(req: Request): string {
  const url = req.originalUrl ?? req.url;
  const query = url.indexOf('?');
  return query === -1 ? url : url.slice(0, query);
}

/** One key's scope as one value: caller, method, path and key (docs/api/contract.md §7.1). */
export function scopeOf(caller: string, method: string, path: string, key: string): string {
  return createHash('sha256')
    .update(JSON.stringify([caller, method, path, key]))
    .digest('hex');
}
