import { createHash } from 'node:crypto';
import type { Request } from 'express';

/** The request header a client sends (docs/api/contract.md §7.1). */
export const IDEMPOTENCY_KEY_HEADER = 'idempotency-key';

/** SHA-256 of a JSON body's raw bytes, taken by the body parser while it read them. */
const RAW_BODY_SHA256 = Symbol('raw-body-sha256');
type RequestWithDigest = Request & { [RAW_BODY_SHA256]?: string };

/** Records the digest of the bytes a JSON body arrived as (the body parser's `verify` hook). */
export function recordRawBody(req: Request, bytes: Buffer): void {
  // Only requests that carry a key pay for the hash.
  if (req.headers[IDEMPOTENCY_KEY_HEADER] === undefined) return;
  (req as RequestWithDigest)[RAW_BODY_SHA256] = createHash('sha256').update(bytes).digest('hex');
}

/** The digest `recordRawBody` took, if the body was JSON and the request carries a key. */
export function rawBodyDigest(req: Request): string | undefined {
  return (req as RequestWithDigest)[RAW_BODY_SHA256];
}
