import {
  Injectable,
  Logger,
  type CallHandler,
  type ExecutionContext,
  type NestInterceptor,
} from '@nestjs/common';
import type { RpcEnvelope } from '@media/contracts';
import { Observable } from 'rxjs';
import { requestContext } from '../http/request-context';

/**
 * Runs a NATS handler inside the caller's request context (request id, user id from the
 * envelope), so its logs and the requests it makes in turn carry the same ids across hops.
 */
@Injectable()
export class RpcContextInterceptor implements NestInterceptor {
  private readonly logger = new Logger('Rpc');

  intercept(context: ExecutionContext, next: CallHandler): Observable<unknown> {
    if (context.getType() !== 'rpc') return next.handle();
    const envelope = context.switchToRpc().getData<Partial<RpcEnvelope<unknown>>>();
    const meta = { ...(envelope?.meta ?? {}) };
    const subject = String(
      context.switchToRpc().getContext<{ getSubject?: () => string }>()?.getSubject?.() ??
        context.getHandler().name,
    );
    const started = performance.now();
    return new Observable((subscriber) =>
      requestContext.run(meta, () =>
        next.handle().subscribe({
          next: (value) => subscriber.next(value),
          error: (error: unknown) => {
            this.logger.log(
              { ...meta, subject, latency_ms: Math.round(performance.now() - started), outcome: 'error' },
              'rpc handled',
            );
            subscriber.error(error);
          },
          complete: () => {
            this.logger.log(
              { ...meta, subject, latency_ms: Math.round(performance.now() - started), outcome: 'ok' },
              'rpc handled',
            );
            subscriber.complete();
          },
        }),
      ),
    );
  }
}
