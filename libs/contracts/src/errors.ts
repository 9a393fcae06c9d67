/** One item of a 422 `detail` list (docs/api/contract.md §2). */
export interface ValidationIssue {
  loc: string[];
  msg: string;
  type: string;
}

/** The body of every non-validation error (docs/api/contract.md §2). */
export interface ErrorBody {
  detail: string;
  code: ErrorCode;
}

/** How a failed NATS request travels back to its caller, so the caller can rethrow it. */
export interface RpcErrorPayload {
  status: number;
  code: ErrorCode;
  detail: string | ValidationIssue[];
}

/**
 * Every `code` an error body or NATS error payload can carry, across the apps and the gateway
 * (docs/api/contract.md §2). Clients switch on these: one list, so a code cannot silently change.
 */
export const ERROR_CODES = [
  // platform
  'validation_error',
  'not_found',
  'conflict',
  'forbidden',
  'gone',
  'not_authenticated',
  'token_invalid',
  'token_expired',
  'token_revoked',
  'invalid_credentials',
  'precondition_failed',
  'payload_too_large',
  'unsupported_media_type',
  'rate_limited',
  'upstream_unavailable',
  /** PostgreSQL cannot be reached, is shutting down or refuses connections: 503 with Retry-After. */
  'database_unavailable',
  'internal_error',
  /** An HTTP status the platform has no name for. */
  'error',
  /** The same Idempotency-Key is still being processed: retry after Retry-After (docs/api/contract.md §7.1). */
  'idempotency_key_in_flight',
  // gateway
  'bad_request',
  /** The request's Host is not in the gateway's ALLOWED_HOSTS (docs/api/contract.md §2). */
  'host_not_allowed',
  'invalid_path',
  'method_not_allowed',
  'request_header_fields_too_large',
  'request_timeout',
  'route_not_found',
  'upstream_timeout',
  // acl
  'email_taken',
  'employee_number_taken',
  'group_name_taken',
  'invitation_expired',
  'invitation_pending',
  'last_admin',
  // assignment
  'invalid_transition',
  'task_not_claimable',
  'task_not_reassignable',
  /** A bulk task item whose single action would have answered 422 (its issues in one sentence). */
  'validation_failed',
  // chat-notifications
  'edit_window_closed',
  'message_deleted',
  'not_group_member',
  'room_inactive',
  'room_is_direct',
  'endpoint_disabled',
  // commercial
  'client_name_taken',
  // content
  'story_category_name_taken',
  // documents
  'range_not_satisfiable',
  /** A tus chunk whose `Upload-Checksum` does not match its bytes (460; the chunk is discarded). */
  'checksum_mismatch',
  /** A tus `PATCH` whose `Upload-Offset` is not the upload's offset (409: `HEAD` tells the right one). */
  'offset_mismatch',
  /** A tus upload already receiving a chunk (409: retry once it has ended; `HEAD` tells the offset). */
  'upload_in_progress',
  // inventory
  'booking_cancelled',
  'booking_reference_taken',
  'invalid_status_transition',
] as const;

export type ErrorCode = (typeof ERROR_CODES)[number];
