import type { IncomingMessage, ServerResponse } from 'node:http';
import { Transform, type Readable, type TransformCallback } from 'node:stream';
import type { ServiceName } from '@media/contracts';
import {
  DomainError,
  InFlight,
  PayloadTooLarge,
  UpstreamUnavailable,
  type TrustedProxies,
} from '@media/core';
import { Pool, type Dispatcher } from 'undici';
import { BodyRate } from './body-rate';
import { BodyTooSlow, InternalError, UpstreamTimeout } from './errors';
import { clientResponseHeaders, upstreamRequestHeaders } from './headers';
import type { PublicOrigin } from './hosts';
import type { SecurityPolicy } from './security-headers';

/** How a forwarded exchange ended, for the access log and the in-flight count. */
export interface ForwardOutcome {
  /** Set when the gateway could not get (all of) an answer from the upstream. */
  error?: DomainError;
  /** The client went away before the answer was complete. */
  clientAborted?: boolean;
}

/** Thrown into undici to stop an exchange whose client has gone. */
class ClientGone extends Error {
  constructor() {
    super('The client closed the connection.');
  }
}

/**
 * Every forwarded body passes through one of these: it counts bytes as they arrive, whatever the
 * headers said, and fails the upload past the limit (so an upstream never reads more than it);
 * it measures the client's rate (MIN_BODY_RATE); and it is what undici destroys when an exchange
 * ends, never the client's request itself (destroying that would cut the client's connection
 * before the answer written to it is out).
 */
class ByteLimit extends Transform {
  private seen = 0;
  /** Its slot among the Forwarder's bodies being sent. */
  slot = -1;
  /** Whether the gateway held the body back (the request paused) since the last rate tick. */
  private held = false;

  constructor(
    private readonly limit: number,
    readonly source: IncomingMessage,
    readonly rate?: BodyRate,
  ) {
    super();
    if (rate) source.on('pause', () => (this.held = true));
  }

  /** Whether the body was held back at any moment since the last call (for BodyRate.tick). */
  heldSinceLastTick(): boolean {
    const held = this.held || this.source.isPaused() || this.writableNeedDrain;
    this.held = this.source.isPaused();
    return held;
  }

  override _transform(chunk: Buffer, _encoding: BufferEncoding, callback: TransformCallback): void {
    this.seen += chunk.length;
    this.rate?.received(chunk.length);
    if (this.seen > this.limit) callback(new PayloadTooLarge(this.limit));
    else callback(null, chunk);
  }
}

/** The media type of a request, lower case, without parameters. */
export function mediaType(req: IncomingMessage): string {
  const type = req.headers['content-type'];
  return type === undefined ? '' : type.split(';')[0].trim().toLowerCase();
}

/** Resumable-upload chunks (tus): documents bounds them by each upload's `Upload-Length`. */
const RESUMABLE_UPLOADS = /^\/documents\/api\/v1\/uploads(\/[^/?#]*)?\/?(\?|$)/;

/** BODY_LIMIT, UPLOAD_LIMIT and PUBLIC_BODY_LIMIT, in bytes. */
export interface BodyLimits {
  body: number;
  upload: number;
  /** Any body sent without a token (to the few public routes that take one). */
  publicBody: number;
}

/**
 * JSON and urlencoded bodies are held to BODY_LIMIT, anything else (uploads) to UPLOAD_LIMIT,
 * but for a tus chunk (`application/offset+octet-stream` sent to the resumable uploads): no
 * limit here, only MIN_BODY_RATE. A body sent without a token (`unauthenticated`: the public
 * routes, a login or an invitation's acceptance, which need a few hundred bytes) is held to
 * PUBLIC_BODY_LIMIT as well, so nobody without an account can make an app parse a megabyte.
 */
export function bodyLimitOf(req: IncomingMessage, limits: BodyLimits, unauthenticated = false): number {
  const type = mediaType(req);
  let limit: number;
  if (
    type === 'application/offset+octet-stream' &&
    (req.method === 'PATCH' || req.method === 'POST') &&
    RESUMABLE_UPLOADS.test(req.url ?? '')
  )
    limit = Number.POSITIVE_INFINITY;
  else
    limit =
      type === 'application/json' || type.endsWith('+json') || type === 'application/x-www-form-urlencoded'
        ? limits.body
        : limits.upload;
  return unauthenticated ? Math.min(limit, limits.publicBody) : limit;
}

const RATE_WINDOW_MS = 5_000;
const RATE_TICK_MS = 1_000;
const IDEMPOTENT = new Set(['GET', 'HEAD', 'OPTIONS', 'PUT', 'DELETE']);

const RESET_CODES = new Set(['ECONNRESET', 'UND_ERR_SOCKET', 'EPIPE']);

function errorCode(error: unknown): string | undefined {
  const code = (error as { code?: unknown }).code;
  return typeof code === 'string' ? code : undefined;
}

/** Maps what undici reports to the contract's answers (docs/api/contract.md §2: 503 / 504). */
function classify(error: unknown, app: ServiceName): DomainError {
  if (error instanceof DomainError) return error;
  const code = errorCode(error);
  if (code === 'UND_ERR_HEADERS_TIMEOUT' || code === 'UND_ERR_BODY_TIMEOUT') return new UpstreamTimeout(app);
  if (code === 'UND_ERR_INVALID_ARG' || code === undefined) return new InternalError();
  return new UpstreamUnavailable(`The ${app} service is unavailable.`);
}

/**
 * One request/response exchange as an undici dispatch handler: the upstream's body chunks are
 * written straight to the client's socket (no intermediate stream, no buffering), with
 * backpressure both ways, and a client that leaves aborts the upstream request. One object per
 * request holds all of it, since this runs for every request the system serves.
 */
class Exchange implements Dispatcher.DispatchHandler {
  private controller?: Dispatcher.DispatchController;
  private clientGone = false;
  /**
   * A body-less idempotent request may be replayed once when a pooled connection was closed by
   * the upstream at the moment it was reused (the keep-alive race); nothing else is retried.
   */
  private retries: number;

  constructor(
    private readonly app: ServiceName,
    private readonly pool: Pool,
    private readonly request: Dispatcher.DispatchOptions,
    private readonly requestId: string,
    private readonly req: IncomingMessage,
    private readonly res: ServerResponse,
    private readonly security: Readonly<Record<string, string>>,
    private readonly authenticated: boolean,
    private readonly finish: (outcome: ForwardOutcome) => void,
  ) {
    // Idempotent and body-less: safe to send again when a pooled connection turned out closed.
    this.retries = request.body === null && IDEMPOTENT.has(request.method) ? 1 : 0;
  }

  start(): void {
    this.controller = undefined;
    this.pool.dispatch(this.request, this);
  }

  /** The client's response closed (the gateway's one `close` listener calls this): a client gone aborts the upstream request. */
  clientClosed(): void {
    if (this.res.writableFinished) return;
    this.clientGone = true;
    this.controller?.abort(new ClientGone());
  }

  onRequestStart(controller: Dispatcher.DispatchController): void {
    this.controller = controller;
    if (this.clientGone) controller.abort(new ClientGone());
  }

  onResponseStart(
    _controller: Dispatcher.DispatchController,
    statusCode: number,
    headers: Record<string, string | string[] | undefined>,
    statusMessage?: string,
  ): void {
    // 1xx informational answers (103 Early Hints) are the upstream's business, not relayed.
    if (statusCode < 200) return;
    const answer = clientResponseHeaders(headers, this.requestId, this.security);
    // An answer to a request with a token is the caller's own: no shared or browser cache keeps
    // it, unless the app chose a policy itself (docs/api/contract.md §2 "Caching and hosts").
    if (this.authenticated && answer['cache-control'] === undefined) answer['cache-control'] = 'no-store';
    // The upstream answered before the whole body was sent (413, 415, 401...): the answer is
    // relayed, and the client's connection closed after it (the rest of the body is read and
    // dropped within a bound first, see lingerOnClose), so it is never left half-read.
    if (this.request.body !== null && !this.req.complete) answer.connection = 'close';
    this.res.writeHead(statusCode, statusMessage || undefined, answer);
  }

  onResponseData(controller: Dispatcher.DispatchController, chunk: Buffer): void {
    if (!this.res.write(chunk)) {
      controller.pause();
      this.res.once('drain', () => controller.resume());
    }
  }

  onResponseEnd(): void {
    this.res.end();
    this.finish({});
  }

  onResponseError(_controller: Dispatcher.DispatchController | undefined, error: Error): void {
    if (error instanceof ClientGone || this.clientGone) {
      this.finish({ clientAborted: true });
      return;
    }
    if (this.retries > 0 && !this.res.headersSent && RESET_CODES.has(errorCode(error) ?? '')) {
      this.retries -= 1;
      this.start();
      return;
    }
    this.finish({ error: classify(error, this.app) });
  }
}

export interface ForwardOptions {
  upstreamTimeout: number;
  /** Bytes per second a request body must keep up, averaged over 5 s; 0 turns it off. */
  minBodyRate: number;
  trustedProxies: TrustedProxies;
  /** PUBLIC_URL as X-Forwarded-Proto/-Host, when set. */
  publicOrigin?: PublicOrigin;
  /** The security headers of every relayed answer. */
  security: SecurityPolicy;
}

/**
 * Keep-alive connection pools, one per upstream, and the forwarding of one request through
 * them. Bodies are streamed both ways, never parsed.
 */
export class Forwarder {
  private readonly pools = new Map<ServiceName, Pool>();
  /** Bodies being sent, for the rate check (not a Set: see InFlight). */
  private readonly bodies = new InFlight<ByteLimit>();
  private readonly rateCheck?: NodeJS.Timeout;

  constructor(
    upstreams: Record<ServiceName, string>,
    private readonly options: ForwardOptions,
  ) {
    if (options.minBodyRate > 0) {
      this.rateCheck = setInterval(() => this.checkRates(), RATE_TICK_MS);
      this.rateCheck.unref();
    }
    for (const [app, origin] of Object.entries(upstreams) as [ServiceName, string][]) {
      this.pools.set(
        app,
        new Pool(origin, {
          connections: 256,
          headersTimeout: options.upstreamTimeout,
          bodyTimeout: options.upstreamTimeout,
          // A refused connection fails at once; a black-holed one must not hold the client long.
          connect: { timeout: Math.min(options.upstreamTimeout, 5_000) },
        }),
      );
    }
  }

  pool(app: ServiceName): Pool {
    const pool = this.pools.get(app);
    if (!pool) throw new Error(`No pool for ${app}`);
    return pool;
  }

  /**
   * Sends `req` to `app` with the path unchanged and streams the answer into `res`. A failure
   * (down, timed out, upload over the limit) is handed to `done` as the contract's error; the
   * caller answers it, or cuts the connection when the upstream's answer had already started.
   * `authenticated`: the request carried a verified token (its answer is marked `no-store`);
   * `bodyLimit`: the bytes its body may have (bodyLimitOf), counted as they arrive. Returns what
   * the response's `close` must call (the caller's one listener), so a client that leaves aborts
   * the upstream request.
   */
  forward(
    app: ServiceName,
    req: IncomingMessage,
    res: ServerResponse,
    requestId: string,
    authenticated: boolean,
    bodyLimit: number,
    done: (outcome: ForwardOutcome) => void,
  ): { clientClosed(): void } | undefined {
    // The client may have left while its token was being checked: nothing to forward then.
    if (req.socket.destroyed) {
      done({ clientAborted: true });
      return undefined;
    }
    const method = req.method ?? 'GET';
    const headers = upstreamRequestHeaders(
      req,
      requestId,
      this.options.trustedProxies,
      false,
      this.options.publicOrigin,
    );
    const chunked = req.headers['transfer-encoding'] !== undefined;
    const length = req.headers['content-length'];
    let body: Readable | null = null;
    if (chunked || (length !== undefined && length !== '0')) {
      const rate =
        this.options.minBodyRate > 0
          ? new BodyRate(this.options.minBodyRate, RATE_WINDOW_MS, RATE_TICK_MS, Date.now())
          : undefined;
      const limited = new ByteLimit(bodyLimit, req, rate);
      body = req.pipe(limited);
      limited.slot = this.bodies.add(limited);
      const settle = () => this.bodies.delete(limited.slot, limited);
      limited.once('close', settle);
      req.once('end', settle);
      // pipe() does not pass on a client abort; without this the upstream would wait for the rest.
      req.once('close', () => {
        if (!req.complete) limited.destroy(new ClientGone());
      });
    }
    const request: Dispatcher.DispatchOptions = { path: req.url ?? '/', method, headers, body };
    const security = this.options.security.headersFor(req);
    const exchange = new Exchange(
      app,
      this.pool(app),
      request,
      requestId,
      req,
      res,
      security,
      authenticated,
      done,
    );
    exchange.start();
    return exchange;
  }

  /**
   * A body that arrives slower than MIN_BODY_RATE over a whole window of the client's time fails
   * with 408, so a trickle cannot hold a gateway connection and an upstream request for long.
   * Time in which the gateway held the client back (the upstream was slow to read) or was too
   * busy to read does not count (BodyRate).
   */
  private checkRates(now = Date.now()): void {
    for (const body of this.bodies) {
      if (body.source.complete || body.destroyed) {
        this.bodies.delete(body.slot, body);
        continue;
      }
      if (body.rate?.tick(now, body.heldSinceLastTick())) {
        this.bodies.delete(body.slot, body);
        body.destroy(new BodyTooSlow(this.options.minBodyRate));
      }
    }
  }

  /** Stops taking requests; waits for running ones until `deadline`, then cuts them. */
  async close(deadline: number): Promise<void> {
    if (this.rateCheck) clearInterval(this.rateCheck);
    const pools = [...this.pools.values()];
    const graceful = Promise.all(pools.map((pool) => pool.close()));
    const remaining = Math.max(0, deadline - Date.now());
    let timer: NodeJS.Timeout | undefined;
    const timedOut = new Promise<'timeout'>(
      (resolve) => (timer = setTimeout(() => resolve('timeout'), remaining)),
    );
    const result = await Promise.race([graceful.then(() => 'closed' as const), timedOut]);
    clearTimeout(timer);
    if (result === 'timeout') await Promise.all(pools.map((pool) => pool.destroy()));
  }
}
