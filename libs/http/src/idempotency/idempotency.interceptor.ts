import {
  Inject,
  Injectable,
  Logger,
  type CallHandler,
  type ExecutionContext,
  type NestInterceptor,
} from '@nestjs/common';
import { Reflector } from '@nestjs/core';
import type { Request, Response } from 'express';
import { from, switchMap, type Observable } from 'rxjs';
import { DataSource } from 'typeorm';
import type { PlatformConfig } from '@media/core';
import { InjectConfig } from '@media/kernel';
import { DomainError, ValidationFailed } from '@media/core';
import {
  bodyFingerprint,
  callerOf,
  IDEMPOTENCY_KEY_LOC,
  idempotencyKey,
  requestPath,
  scopeOf,
} from './fingerprint';
import { IdempotencyKeys, type KeptAnswer, type KeptHeaders } from './idempotency-keys';
import { IDEMPOTENT } from './idempotent.decorator';
import { KeptAnswerReplay } from './kept-answer';

/** 409 while the first request with the key is still being processed (docs/api/contract.md §7.1). */
export class IdempotencyKeyInFlight extends DomainError {
  constructor() {
    super(
      409,
      'idempotency_key_in_flight',
      'A request with this Idempotency-Key is still being processed; retry shortly.',
      { 'Retry-After': '1' },
    );
  }
}

function reused(): ValidationFailed {
  return ValidationFailed.at(
    IDEMPOTENCY_KEY_LOC,
    'This Idempotency-Key was used with a different request body',
    'idempotency_key_reused',
  );
}

type Chunk = string | Buffer | Uint8Array;

function toBuffer(chunk: Chunk, encoding?: BufferEncoding): Buffer {
  if (Buffer.isBuffer(chunk)) return chunk;
  if (typeof chunk === 'string') return Buffer.from(chunk, encoding ?? 'utf8');
  return Buffer.from(chunk);
}

function keptHeaders(res: Response): KeptHeaders {
  const headers: KeptHeaders = {};
  for (const name of ['content-type', 'location', 'etag', 'upload-expires', 'upload-offset'] as const) {
    const value = res.getHeader(name);
    if (value !== undefined) headers[name] = String(value);
  }
  return headers;
}

/**
 * Holds the answer's bytes until `settle` has recorded it, then sends them: a client that
 * retries the moment it sees the answer finds the key kept (or free), never still in flight.
 */
function holdAnswer(res: Response, settle: (status: number, body: Buffer) => Promise<void>): void {
  const chunks: Buffer[] = [];
  const write = res.write.bind(res);
  const end = res.end.bind(res);
  res.write = ((chunk: Chunk, encoding?: unknown, callback?: unknown) => {
    chunks.push(toBuffer(chunk, typeof encoding === 'string' ? (encoding as BufferEncoding) : undefined));
    const done = typeof encoding === 'function' ? encoding : callback;
    if (typeof done === 'function') process.nextTick(done as () => void);
    return true;
  }) as Response['write'];
  res.end = ((chunk?: unknown, encoding?: unknown, callback?: unknown) => {
    let done = callback;
    if (typeof chunk === 'function') [done, chunk] = [chunk, undefined];
    if (typeof encoding === 'function') [done, encoding] = [encoding, undefined];
    if (chunk !== undefined && chunk !== null) {
      chunks.push(toBuffer(chunk as Chunk, encoding as BufferEncoding | undefined));
    }
    res.write = write;
    res.end = end;
    const body = Buffer.concat(chunks);
    void settle(res.statusCode, body).finally(() => end(body, done as () => void));
    return res;
  }) as Response['end'];
}

/**
 * Idempotency keys (docs/api/contract.md §7.1) for routes marked `@Idempotent()`: the first
 * request with a key claims it in the app's database and is processed; its 2xx answer is kept
 * and replayed to later requests with the same key and body; any other answer frees the key.
 * Runs after the guards, so the caller is known and a multipart body (its files hashed) is read.
 */
@Injectable()
export class IdempotencyInterceptor implements NestInterceptor {
  private readonly logger = new Logger('Idempotency');
  private readonly keys: IdempotencyKeys;

  constructor(
    @Inject(Reflector) private readonly reflector: Reflector,
    @Inject(DataSource) dataSource: DataSource,
    @InjectConfig() config: PlatformConfig,
  ) {
    this.keys = new IdempotencyKeys(dataSource, config.idempotency);
  }

  intercept(context: ExecutionContext, next: CallHandler): Observable<unknown> {
    if (context.getType() !== 'http') return next.handle();
    if (!this.reflector.get<boolean>(IDEMPOTENT, context.getHandler())) return next.handle();
    const http = context.switchToHttp();
    const req = http.getRequest<Request & { user?: { id: string } }>();
    const key = idempotencyKey(req);
    if (key === undefined) return next.handle();

    const caller = callerOf(req);
    const path = requestPath(req);
    const scope = { scope: scopeOf(caller, req.method, path, key), caller, method: req.method, path, key };
    const fingerprint = bodyFingerprint(req);
    return from(this.keys.claim(scope, fingerprint)).pipe(
      switchMap((found) => {
        if (found.outcome !== 'claimed') {
          if (found.fingerprint !== fingerprint) throw reused();
          if (found.outcome === 'in_flight') throw new IdempotencyKeyInFlight();
          throw new KeptAnswerReplay(found.answer);
        }
        const res = http.getResponse<Response>();
        holdAnswer(res, (status, body) =>
          this.settle(scope.scope, found.claim, { status, headers: keptHeaders(res), body }),
        );
        return next.handle();
      }),
    );
  }

  private async settle(scope: string, claim: string, answer: KeptAnswer): Promise<void> {
    try {
      if (answer.status >= 200 && answer.status < 300) await this.keys.keep(scope, claim, answer);
      else await this.keys.release(scope, claim);
    } catch (error) {
      // The answer goes out anyway; the key stays in flight until IDEMPOTENCY's in-flight timeout.
      this.logger.warn({ err: error }, 'Idempotency key not settled');
    }
  }
}
