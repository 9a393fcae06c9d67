import type { ErrorCode, RpcErrorPayload, ValidationIssue } from '@media/contracts';

/** An error with a stable code; the one exception filter turns it into the contract's shape. */
export class DomainError extends Error {
  constructor(
    readonly status: number,
    readonly code: ErrorCode,
    readonly detail: string,
    readonly headers: Record<string, string> = {},
  ) {
    super(detail);
  }

  toPayload(): RpcErrorPayload {
    return { status: this.status, code: this.code, detail: this.detail };
  }
}

export class NotFound extends DomainError {
  constructor(resource: string, id?: string) {
    super(404, 'not_found', id === undefined ? `${resource} not found.` : `${resource} ${id} not found.`);
  }
}

export class Conflict extends DomainError {
  constructor(detail: string, code: ErrorCode = 'conflict') {
    super(409, code, detail);
  }
}

export class Forbidden extends DomainError {
  constructor(detail = 'You do not have permission to perform this action.', code: ErrorCode = 'forbidden') {
    super(403, code, detail);
  }
}

export type AuthFailureCode = Extract<
  ErrorCode,
  'not_authenticated' | 'token_invalid' | 'token_expired' | 'token_revoked' | 'invalid_credentials'
>;

export class Unauthenticated extends DomainError {
  constructor(code: AuthFailureCode, detail: string) {
    super(401, code, detail, { 'WWW-Authenticate': 'Bearer' });
  }
}

export class Gone extends DomainError {
  constructor(detail: string, code: ErrorCode = 'gone') {
    super(410, code, detail);
  }
}

export class PreconditionFailed extends DomainError {
  constructor(detail = 'The resource has changed since it was read.') {
    super(412, 'precondition_failed', detail);
  }
}

export class PayloadTooLarge extends DomainError {
  constructor(limit: number) {
    super(413, 'payload_too_large', `The request body exceeds the limit of ${limit} bytes.`);
  }
}

export class UnsupportedMediaType extends DomainError {
  constructor(contentType: string, accepted: readonly string[]) {
    super(
      415,
      'unsupported_media_type',
      `Content type '${contentType}' is not supported; use ${accepted.join(', ')}.`,
    );
  }
}

export class RateLimited extends DomainError {
  constructor(retryAfterSeconds: number, detail = 'Too many requests; slow down.') {
    super(429, 'rate_limited', detail, { 'Retry-After': String(retryAfterSeconds) });
  }
}

export class UpstreamUnavailable extends DomainError {
  constructor(detail = 'A service this request depends on is unavailable.') {
    super(503, 'upstream_unavailable', detail);
  }
}

/** The most items a 422 lists before its one `too_many_errors` item (docs/api/contract.md §2). */
export const MAX_VALIDATION_ISSUES = 50;

/**
 * At most MAX_VALIDATION_ISSUES items, then one `too_many_errors` item at the source (`body`,
 * `query`, `data`...) saying how many were left out, so a 422 never grows with the input.
 */
export function boundIssues(issues: ValidationIssue[], omitted = 0): ValidationIssue[] {
  const left = Math.max(0, issues.length - MAX_VALIDATION_ISSUES) + omitted;
  if (left === 0) return issues;
  const kept = issues.slice(0, MAX_VALIDATION_ISSUES);
  const root = kept[0]?.loc[0] ?? 'body';
  return [...kept, { loc: [root], msg: `${left} more errors were left out`, type: 'too_many_errors' }];
}

/** A 422 whose `detail` is the list of failing fields (docs/api/contract.md §2), bounded by boundIssues. */
export class ValidationFailed extends Error {
  readonly status = 422;
  readonly issues: ValidationIssue[];
  constructor(issues: ValidationIssue[], omitted = 0) {
    const bounded = boundIssues(issues, omitted);
    super(bounded.map((i) => `${i.loc.join('.')}: ${i.msg}`).join('; '));
    this.issues = bounded;
  }

  static at(loc: string[], msg: string, type = 'value_error'): ValidationFailed {
    return new ValidationFailed([{ loc, msg, type }]);
  }

  toPayload(): RpcErrorPayload {
    return { status: 422, code: 'validation_error', detail: this.issues };
  }
}

/** Rebuilds the error a NATS responder threw, so callers handle it like a local one. */
export function errorFromPayload(payload: RpcErrorPayload): DomainError | ValidationFailed {
  if (payload.status === 422 && Array.isArray(payload.detail)) return new ValidationFailed(payload.detail);
  // A code from another app of this platform: one of ERROR_CODES.
  const headers: Record<string, string> = payload.status === 401 ? { 'WWW-Authenticate': 'Bearer' } : {};
  return new DomainError(payload.status, payload.code as ErrorCode, String(payload.detail), headers);
}

export function isRpcErrorPayload(value: unknown): value is RpcErrorPayload {
  return (
    typeof value === 'object' &&
    value !== null &&
    typeof (value as RpcErrorPayload).status === 'number' &&
    typeof (value as RpcErrorPayload).code === 'string'
  );
}
