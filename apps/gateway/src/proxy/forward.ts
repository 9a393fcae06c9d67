import type { IncomingMessage, ServerResponse } from 'node:http';
import { Transform, type Readable, type TransformCallback } from 'node:stream';
import type { ServiceName } from '@media/contracts';
import { DomainError, PayloadTooLarge, UpstreamUnavailable } from '@media/platform';
import { Pool, type Dispatcher } from 'undici';
import { InternalError, UpstreamTimeout } from './errors';
import { clientResponseHeaders, upstreamRequestHeaders } from './headers';

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
 * Counts request body bytes of a body without Content-Length (chunked) and fails the upload
 * at the limit, so a stream of unknown length cannot exceed UPLOAD_LIMIT either.
 */
class ByteLimit extends Transform {
  private seen = 0;

  constructor(private readonly limit: number) {
    super();
  }

  override _transform(chunk: Buffer, _encoding: BufferEncoding, callback: TransformCallback): void {
    this.seen += chunk.length;
    if (this.seen > this.limit) callback(new PayloadTooLarge(this.limit));
    else callback(null, chunk);
  }
}

const RESET_CODES = new Set(['ECONNRESET', 'UND_ERR_SOCKET', 'EPIPE']);

function errorCode(error: unknown): string | undefined {
  const code = (error as { code?: unknown }).code;
  return typeof code === 'string' ? code : undefined;
}

/** Maps what undici reports to the contract's answers (CONTRACT §2: 503 / 504). */
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
    private readonly res: ServerResponse,
    private readonly finish: (outcome: ForwardOutcome) => void,
  ) {
    const method = request.method;
    this.retries = request.body === null && (method === 'GET' || method === 'HEAD') ? 1 : 0;
    res.on('close', this.onClientClose);
  }

  start(): void {
    this.controller = undefined;
    this.pool.dispatch(this.request, this);
  }

  private readonly onClientClose = (): void => {
    if (this.res.writableFinished) return;
    this.clientGone = true;
    this.controller?.abort(new ClientGone());
  };

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
    this.res.writeHead(
      statusCode,
      statusMessage || undefined,
      clientResponseHeaders(headers, this.requestId),
    );
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
  uploadLimit: number;
  upstreamTimeout: number;
}

/**
 * Keep-alive connection pools, one per upstream, and the forwarding of one request through
 * them. Bodies are streamed both ways, never parsed.
 */
export class Forwarder {
  private readonly pools = new Map<ServiceName, Pool>();

  constructor(
    upstreams: Record<ServiceName, string>,
    private readonly options: ForwardOptions,
  ) {
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
   */
  forward(
    app: ServiceName,
    req: IncomingMessage,
    res: ServerResponse,
    requestId: string,
    done: (outcome: ForwardOutcome) => void,
  ): void {
    // The client may have left while its token was being checked: nothing to forward then.
    if (req.socket.destroyed) {
      done({ clientAborted: true });
      return;
    }
    const method = req.method ?? 'GET';
    const headers = upstreamRequestHeaders(req, requestId);
    const chunked = req.headers['transfer-encoding'] !== undefined;
    const length = req.headers['content-length'];
    let body: Readable | null = null;
    if (chunked) body = req.pipe(new ByteLimit(this.options.uploadLimit));
    else if (length !== undefined && length !== '0') body = req;
    if (chunked && body) {
      const limited = body;
      // pipe() does not pass on a client abort; without this the upstream would wait for the rest.
      req.once('close', () => {
        if (!req.complete) limited.destroy(new ClientGone());
      });
    }
    const request: Dispatcher.DispatchOptions = { path: req.url ?? '/', method, headers, body };
    new Exchange(app, this.pool(app), request, requestId, res, done).start();
  }

  /** Stops taking requests; waits for running ones until `deadline`, then cuts them. */
  async close(deadline: number): Promise<void> {
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
