import {
  ArgumentsHost,
  Catch,
  ExceptionFilter,
  HttpException,
  Inject,
  Logger,
  Optional,
} from '@nestjs/common';
import type { ErrorCode, RpcErrorPayload } from '@media/contracts';
import type { Response } from 'express';
import { throwError, type Observable } from 'rxjs';
import { DatabaseAvailability } from '@media/kernel';
import { KeptAnswerReplay } from '@media/http';
import { DomainError, ValidationFailed } from '@media/core';

const STATUS_CODES: Record<number, ErrorCode> = {
  400: 'bad_request',
  401: 'not_authenticated',
  403: 'forbidden',
  404: 'not_found',
  405: 'method_not_allowed',
  409: 'conflict',
  410: 'gone',
  412: 'precondition_failed',
  413: 'payload_too_large',
  415: 'unsupported_media_type',
  429: 'rate_limited',
  503: 'upstream_unavailable',
};

/** Normalises anything thrown into the contract's error payload (docs/api/contract.md §2). */
export function toErrorPayload(exception: unknown): RpcErrorPayload & { headers?: Record<string, string> } {
  if (exception instanceof ValidationFailed) return exception.toPayload();
  if (exception instanceof DomainError) return { ...exception.toPayload(), headers: exception.headers };
  if (exception instanceof HttpException) {
    const status = exception.getStatus();
    const response = exception.getResponse();
    const message =
      typeof response === 'object' && response !== null && 'message' in response
        ? String((response as { message: unknown }).message)
        : exception.message;
    return { status, code: STATUS_CODES[status] ?? 'error', detail: status === 404 ? 'Not found.' : message };
  }
  return { status: 500, code: 'internal_error', detail: 'An unexpected error occurred.' };
}

/**
 * The one exception filter: HTTP requests get the contract's JSON error, NATS requests get an
 * error payload the caller rebuilds with `errorFromPayload`. Never leaks stack traces or SQL.
 */
@Catch()
export class ContractExceptionFilter implements ExceptionFilter {
  private readonly logger = new Logger('Exceptions');

  constructor(@Optional() @Inject(DatabaseAvailability) private readonly database?: DatabaseAvailability) {}

  catch(thrown: unknown, host: ArgumentsHost): Observable<never> | void {
    if (thrown instanceof KeptAnswerReplay && host.getType() === 'http') {
      const response = host.switchToHttp().getResponse<Response>();
      if (!response.headersSent) thrown.send(response);
      return;
    }
    // A database that cannot be reached is a 503 with Retry-After, logged once per outage.
    const exception = this.database ? this.database.classify(thrown) : thrown;
    const { headers, ...payload } = toErrorPayload(exception);
    // A 5xx that no domain error chose, and that is not an unavailability (503: an outage, said
    // once per outage above), is a fault to look into, whatever threw it (an HttpException of
    // 500 answers with code `error`, not `internal_error`).
    if (payload.status >= 500 && payload.status !== 503 && !(exception instanceof DomainError)) {
      this.logger.error({ err: exception }, 'Unhandled error');
    }
    if (host.getType() === 'rpc') return throwError(() => payload);

    const response = host.switchToHttp().getResponse<Response>();
    if (response.headersSent) return;
    for (const [name, value] of Object.entries(headers ?? {})) response.setHeader(name, value);
    const body =
      payload.status === 422 ? { detail: payload.detail } : { detail: payload.detail, code: payload.code };
    response.status(payload.status).json(body);
  }
}
