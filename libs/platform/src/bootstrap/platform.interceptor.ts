import {
  Inject,
  Injectable,
  type CallHandler,
  type ExecutionContext,
  type NestInterceptor,
} from '@nestjs/common';
import type { Observable } from 'rxjs';
import { IdempotencyInterceptor } from '@media/http';
import { ReadRetryInterceptor } from '@media/kernel';
import { RpcContextInterceptor } from '@media/messaging';

/**
 * The platform's interceptors as one global interceptor, in their order: a NATS request's
 * context (its request id, caller and span), then for HTTP a read run again when its database
 * session died, around an idempotency key's claim. Each of them passes the others' kind of
 * request through untouched; Nest wraps every global interceptor of a route in a deferred
 * Observable, an async function and an async resource of its own on every request, which for
 * three of them cost more than what they do on most requests (docs/benchmarks.md).
 */
@Injectable()
export class PlatformInterceptor implements NestInterceptor {
  constructor(
    @Inject(RpcContextInterceptor) private readonly rpc: RpcContextInterceptor,
    @Inject(ReadRetryInterceptor) private readonly readRetry: ReadRetryInterceptor,
    @Inject(IdempotencyInterceptor) private readonly idempotency: IdempotencyInterceptor,
  ) {}

  intercept(context: ExecutionContext, next: CallHandler): Observable<unknown> {
    const type = context.getType();
    if (type === 'rpc') return this.rpc.intercept(context, next);
    if (type !== 'http') return next.handle();
    return this.readRetry.intercept(context, {
      handle: () => this.idempotency.intercept(context, next),
    });
  }
}
