/** One item of a 422 `detail` list (CONTRACT §2). */
export interface ValidationIssue {
  loc: string[];
  msg: string;
  type: string;
}

/** The body of every non-validation error (CONTRACT §2). */
export interface ErrorBody {
  detail: string;
  code: string;
}

/** How a failed NATS request travels back to its caller, so the caller can rethrow it. */
export interface RpcErrorPayload {
  status: number;
  code: string;
  detail: string | ValidationIssue[];
}
