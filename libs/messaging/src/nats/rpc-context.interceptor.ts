import {
  Inject,
  Injectable,
  Logger,
  type CallHandler,
  type ExecutionContext,
  type NestInterceptor,
} from '@nestjs/common';
import type { RpcEnvelope } from '@media/contracts';
import { Observable, throwError } from 'rxjs';
import {
  requestContext,
  AppMetrics,
  tokenRevoked,
  TokenVersions,
  contextFrom,
  openSpan,
  SpanKind,
} from '@media/core';
import { SpanStatusCode } from '@opentelemetry/api';

/**
 * Runs a NATS handler inside the caller's request context (request id, user id from the
 * envelope), so its logs and the requests it makes in turn carry the same ids across hops. A
 * call made with a token revoked since (`user_ver` below the user's version) is refused with
 * 401 `token_revoked`, as the HTTP request would be.
 */
@Injectable()
export class RpcContextInterceptor implements NestInterceptor {
  private readonly logger = new Logger('Rpc');

  constructor(
    @Inject(AppMetrics) private readonly metrics: AppMetrics,
    @Inject(TokenVersions) private readonly versions: TokenVersions,
  ) {}

  intercept(context: ExecutionContext, next: CallHandler): Observable<unknown> {
    if (context.getType() !== 'rpc') return next.handle();
    const envelope = context.switchToRpc().getData<Partial<RpcEnvelope<unknown>>>();
    const meta = { ...(envelope?.meta ?? {}) };
    const subject = String(
      context.switchToRpc().getContext<{ getSubject?: () => string }>()?.getSubject?.() ??
        context.getHandler().name,
    );
    const started = performance.now();
    const { traceparent, ...logged } = meta;
    // A call made for a user whose tokens were revoked since is refused as its HTTP request would be.
    if (typeof logged.user_id === 'string' && typeof logged.user_ver === 'number') {
      if (this.versions.isRevoked(logged.user_id, logged.user_ver)) return throwError(() => tokenRevoked());
    }
    const span = openSpan(`nats handle ${subject}`, SpanKind.SERVER, contextFrom({ traceparent }), {
      'messaging.system': 'nats',
      'messaging.destination.name': subject,
      ...(logged.request_id ? { request_id: logged.request_id } : {}),
    });
    const done = (outcome: 'ok' | 'error') => {
      const seconds = (performance.now() - started) / 1000;
      this.metrics.rpcServer.observe({ subject, outcome }, seconds);
      if (outcome === 'error') span.span.setStatus({ code: SpanStatusCode.ERROR });
      span.span.end();
      this.logger.log({ ...logged, subject, latency_ms: Math.round(seconds * 1000), outcome }, 'rpc handled');
    };
    return new Observable((subscriber) =>
      requestContext.run(logged, () =>
        span.run(() =>
          next.handle().subscribe({
            next: (value) => subscriber.next(value),
            error: (error: unknown) => {
              done('error');
              subscriber.error(error);
            },
            complete: () => {
              done('ok');
              subscriber.complete();
            },
          }),
        ),
      ),
    );
  }
}
