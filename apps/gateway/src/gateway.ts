import { createServer, type IncomingMessage, type Server, type ServerResponse } from 'node:http';
import type { Socket } from 'node:net';
import type { Duplex } from 'node:stream';
import { performance } from 'node:perf_hooks';
import type { AccessTokenClaims, ServiceName } from '@media/contracts';
import {
  AppMetrics,
  bearerToken,
  contextFrom,
  DomainError,
  endHttpSpan,
  openSpan,
  PayloadTooLarge,
  RateLimited,
  requestId,
  SpanKind,
  startTracing,
  traceparentOf,
  UpstreamUnavailable,
  type Span,
} from '@media/platform';
import { timingSafeEqual } from 'node:crypto';
import { loadGatewayConfig, type ResolvedGatewayConfig } from './config';
import { mergedOpenApi } from './docs/openapi';
import { serveDocs } from './docs/swagger-ui';
import { checkUpstreams } from './health/readiness';
import { createLogger, type GatewayLogger } from './logger';
import { queryTicket, redactUrl, TokenChecker } from './proxy/auth';
import {
  InternalError,
  InvalidPath,
  refuseUpload,
  RouteNotFound,
  sendError,
  writeSocketError,
} from './proxy/errors';
import { Forwarder } from './proxy/forward';
import { clientAddress } from './proxy/headers';
import { RateLimiter } from './proxy/rate-limit';
import {
  firstSegment,
  hasDotSegment,
  isPublicPath,
  isUpstreamMetrics,
  OWN_SEGMENTS,
  pathOf,
  ROUTES,
} from './proxy/routes';
import { proxyUpgrade } from './proxy/websocket';

/** A running gateway, as `main.ts` and the embedded runner hold it. */
export interface RunningGateway {
  /** The port it listens on (the real one when 0 was asked for). */
  port: number;
  /** Stops accepting, lets in-flight requests finish (bounded by SHUTDOWN_TIMEOUT), closes pools. */
  close(): Promise<void>;
}

/** What the access log line of one request carries besides method, url and status. */
interface RequestNote {
  requestId: string;
  userId?: string;
  upstream?: ServiceName;
  /** The code of an answer the gateway made itself (route_not_found, upstream_timeout...). */
  code?: string;
  started: number;
  /** The gateway's server span of this request (a no-op span when tracing is off). */
  span?: Span;
  /** `traceparent` of that span, passed to the upstream. */
  traceparent?: string;
}

function isPreflight(req: IncomingMessage): boolean {
  return req.method === 'OPTIONS' && req.headers['access-control-request-method'] !== undefined;
}

function sendJson(res: ServerResponse, status: number, value: unknown): void {
  const payload = JSON.stringify(value);
  res.writeHead(status, {
    'Content-Type': 'application/json; charset=utf-8',
    'Content-Length': Buffer.byteLength(payload),
  });
  res.end(payload);
}

class Gateway {
  private readonly server: Server;
  private readonly forwarder: Forwarder;
  private readonly tokens: TokenChecker;
  private readonly limiter: RateLimiter;
  private readonly metrics = new AppMetrics('gateway');
  /** Requests whose answer is not complete yet: shutdown waits for these. */
  private readonly active = new Set<ServerResponse>();
  /** Open websocket tunnels: shutdown cuts these, they never "finish". */
  private readonly tunnels = new Set<Duplex>();
  private closing?: Promise<void>;
  private onIdle?: () => void;

  constructor(
    private readonly config: ResolvedGatewayConfig,
    private readonly log: GatewayLogger,
  ) {
    this.forwarder = new Forwarder(config.upstreams, {
      uploadLimit: config.uploadLimit,
      upstreamTimeout: config.upstreamTimeout,
    });
    this.tokens = new TokenChecker(config.jwksUrl, { issuer: config.issuer, audience: config.audience });
    this.limiter = new RateLimiter(config.rateLimitPerMinute);
    this.server = createServer({ keepAliveTimeout: 65_000 }, this.onRequest);
    this.server.on('checkContinue', this.onCheckContinue);
    this.server.on('upgrade', this.onUpgrade);
  }

  listen(): Promise<number> {
    return new Promise((resolve, reject) => {
      this.server.once('error', reject);
      this.server.listen(this.config.port, () => {
        this.server.off('error', reject);
        const address = this.server.address();
        resolve(typeof address === 'object' && address ? address.port : this.config.port);
      });
    });
  }

  // ---------------------------------------------------------------- HTTP requests

  private readonly onRequest = (req: IncomingMessage, res: ServerResponse): void => {
    const note = this.begin(req, res);
    try {
      this.route(req, res, note);
    } catch (error) {
      this.fail(req, res, note, error);
    }
  };

  /** `Expect: 100-continue`: an upload the gateway would refuse is refused before it is sent. */
  private readonly onCheckContinue = (req: IncomingMessage, res: ServerResponse): void => {
    if (Number(req.headers['content-length']) > this.config.uploadLimit) {
      const note = this.begin(req, res);
      note.code = 'payload_too_large';
      res.setHeader('X-Request-Id', note.requestId);
      // The client holds the body back until it hears 100, so there is nothing to drain.
      sendError(res, new PayloadTooLarge(this.config.uploadLimit), { Connection: 'close' });
      return;
    }
    res.writeContinue();
    this.onRequest(req, res);
  };

  /**
   * Bookkeeping of every request: its id, the in-flight set, the access log line. The id is put
   * on the response where the response is written (forwarded headers, or the gateway's own
   * answers), not with setHeader here: a header set early makes Node's writeHead re-validate
   * every upstream header one by one.
   */
  private begin(req: IncomingMessage, res: ServerResponse): RequestNote {
    const note: RequestNote = { requestId: incomingRequestId(req), started: performance.now() };
    const parent = contextFrom({ traceparent: req.headers.traceparent });
    const span = openSpan(`${req.method} ${pathOf(req.url ?? '/')}`, SpanKind.SERVER, parent, {
      'http.request.method': req.method ?? 'GET',
      request_id: note.requestId,
    });
    note.span = span.span;
    note.traceparent = traceparentOf(span.context);
    this.active.add(res);
    if (this.closing) res.setHeader('Connection', 'close');
    res.on('close', () => this.finished(req, res, note));
    return note;
  }

  /** Routing, then the token (CONTRACT §0: an unknown segment is 404 with or without one). */
  private route(req: IncomingMessage, res: ServerResponse, note: RequestNote): void {
    const url = req.url ?? '/';
    // Only origin-form targets: absolute-form and `*` are for proxies and OPTIONS-to-server.
    if (url.charCodeAt(0) !== 47 /* "/" */) throw new InvalidPath();
    const path = pathOf(url);
    if (hasDotSegment(path)) throw new InvalidPath();
    const segment = firstSegment(path);
    if (OWN_SEGMENTS.has(segment)) {
      this.own(path, req, res, note).catch((error: unknown) => this.fail(req, res, note, error));
      return;
    }
    const app = ROUTES.get(segment);
    if (!app) throw new RouteNotFound(segment);
    if (isUpstreamMetrics(path)) throw new DomainError(404, 'not_found', `Nothing at ${path}.`);
    if (note.traceparent) req.headers.traceparent = note.traceparent;

    if (isPublicPath(req.method ?? 'GET', path) || isPreflight(req)) {
      this.admit(req, res, note, app, `ip:${clientAddress(req)}`);
      return;
    }
    const raw = bearerToken(req.headers.authorization);
    // Most requests carry a token verified before: those go on without waiting a turn.
    const claims = this.tokens.cached(raw);
    if (claims) {
      this.admit(req, res, note, app, claims);
      return;
    }
    this.tokens
      .verify(raw)
      .then((verified) => this.admit(req, res, note, app, verified))
      .catch((error: unknown) => this.fail(req, res, note, error));
  }

  /** Limits, then forwarding: the rate limit counts the token's user, else the address. */
  private admit(
    req: IncomingMessage,
    res: ServerResponse,
    note: RequestNote,
    app: ServiceName,
    client: AccessTokenClaims | string,
  ): void {
    let key: string;
    if (typeof client === 'string') key = client;
    else {
      note.userId = client.sub;
      key = `sub:${client.sub}`;
    }
    const wait = this.limiter.take(key);
    if (wait > 0) throw new RateLimited(wait);

    const length = req.headers['content-length'];
    if (length !== undefined && Number(length) > this.config.uploadLimit) {
      throw new PayloadTooLarge(this.config.uploadLimit);
    }
    note.upstream = app;
    this.forwarder.forward(app, req, res, note.requestId, (outcome) => {
      if (outcome.error) this.fail(req, res, note, outcome.error);
    });
  }

  /** Answers with the contract's error body; an unread upload is refused without reading it all. */
  private fail(req: IncomingMessage, res: ServerResponse, note: RequestNote, error: unknown): void {
    const answer = error instanceof DomainError ? error : new InternalError();
    if (!(error instanceof DomainError))
      this.log.error({ request_id: note.requestId, err: error }, 'request failed');
    note.code = answer.code;
    if (res.headersSent) {
      // The answer had started: the client can only learn of the failure by a cut connection.
      res.destroy();
      return;
    }
    res.setHeader('X-Request-Id', note.requestId);
    // A body of known size within the limit is read and dropped by Node after the answer, and
    // the connection kept; a chunked or oversized one must not be read to its end.
    const length = req.headers['content-length'];
    const unbounded =
      req.headers['transfer-encoding'] !== undefined || Number(length) > this.config.uploadLimit;
    if (req.complete || !unbounded) sendError(res, answer);
    else refuseUpload(req, res, answer, this.config.uploadLimit);
  }

  private async own(
    path: string,
    req: IncomingMessage,
    res: ServerResponse,
    note: RequestNote,
  ): Promise<void> {
    res.setHeader('X-Request-Id', note.requestId);
    if (req.method !== 'GET' && req.method !== 'HEAD') {
      sendError(res, new DomainError(405, 'method_not_allowed', `${req.method} is not allowed on ${path}.`), {
        Allow: 'GET, HEAD',
      });
      return;
    }
    if (path === '/health/live') return sendJson(res, 200, { status: 'ok' });
    if (path === '/health/ready') {
      const readiness = await checkUpstreams((app) => this.forwarder.pool(app));
      return sendJson(res, readiness.status === 'ok' && !this.closing ? 200 : 503, readiness);
    }
    if (path === '/metrics') return this.exposeMetrics(req, res);
    if (path === '/openapi.json')
      return sendJson(res, 200, await mergedOpenApi((app) => this.forwarder.pool(app)));
    if (serveDocs(path, res)) return;
    sendError(res, new DomainError(404, 'not_found', `Nothing at ${path}.`));
  }

  /** The gateway's Prometheus metrics; with METRICS_TOKEN set, only for a scraper that presents it. */
  private async exposeMetrics(req: IncomingMessage, res: ServerResponse): Promise<void> {
    const expected = this.config.metricsToken;
    if (expected) {
      const given = Buffer.from(bearerToken(req.headers.authorization) ?? '');
      const wanted = Buffer.from(expected);
      if (given.length !== wanted.length || !timingSafeEqual(given, wanted)) {
        return sendError(
          res,
          new DomainError(401, 'not_authenticated', 'The metrics token is missing or wrong.'),
          {
            'WWW-Authenticate': 'Bearer',
          },
        );
      }
    }
    await this.metrics.expose(res);
  }

  /** The route label of a gateway request: its upstream's prefix, or its own path, never the raw path. */
  private routeLabel(req: IncomingMessage, note: RequestNote): string {
    if (note.upstream) return `/${firstSegment(pathOf(req.url ?? '/'))}/*`;
    const path = pathOf(req.url ?? '/');
    return OWN_SEGMENTS.has(firstSegment(path)) ? path.replace(/^\/docs\/.*$/, '/docs/*') : 'unmatched';
  }

  /** One access log line per request (CONTRACT §6); the gateway's own probes only at debug. */
  private finished(req: IncomingMessage, res: ServerResponse, note: RequestNote): void {
    this.active.delete(res);
    const route = this.routeLabel(req, note);
    this.metrics.observeHttp(
      req.method ?? 'GET',
      route,
      res.statusCode,
      (performance.now() - note.started) / 1000,
    );
    if (note.span) endHttpSpan(note.span, route, req.method ?? 'GET', res.statusCode);
    const level = req.url === '/health/live' || req.url === '/health/ready' ? 'debug' : 'info';
    if (this.log.isLevelEnabled(level)) {
      const line = {
        request_id: note.requestId,
        user_id: note.userId,
        method: req.method,
        url: redactUrl(req.url ?? ''),
        status: res.statusCode,
        upstream: note.upstream,
        code: note.code,
        aborted: res.writableFinished ? undefined : true,
        latency_ms: Math.round((performance.now() - note.started) * 100) / 100,
      };
      this.log[level](line, 'request completed');
    }
    if (this.active.size === 0) this.onIdle?.();
  }

  // ---------------------------------------------------------------- websocket upgrades

  private readonly onUpgrade = (req: IncomingMessage, socket: Duplex, head: Buffer): void => {
    socket.on('error', () => socket.destroy());
    const started = performance.now();
    const id = incomingRequestId(req);
    const note: RequestNote = { requestId: id, started };
    const logLine = (status: number) =>
      this.log.info(
        {
          request_id: id,
          user_id: note.userId,
          method: req.method,
          url: redactUrl(req.url ?? ''),
          status,
          upstream: note.upstream,
          code: note.code,
          upgrade: true,
          latency_ms: Math.round((performance.now() - started) * 100) / 100,
        },
        'upgrade completed',
      );
    this.upgrade(req, socket, head, note, logLine).catch((error: unknown) => {
      const answer = error instanceof DomainError ? error : new InternalError();
      if (!(error instanceof DomainError)) this.log.error({ request_id: id, err: error }, 'upgrade failed');
      note.code = answer.code;
      logLine(answer.status);
      writeSocketError(socket, answer, id);
    });
  };

  private async upgrade(
    req: IncomingMessage,
    socket: Duplex,
    head: Buffer,
    note: RequestNote,
    logLine: (status: number) => void,
  ): Promise<void> {
    if (this.closing) throw new UpstreamUnavailable('The gateway is shutting down.');
    const url = req.url ?? '/';
    if (url.charCodeAt(0) !== 47) throw new InvalidPath();
    const path = pathOf(url);
    if (hasDotSegment(path)) throw new InvalidPath();
    const segment = firstSegment(path);
    const app = ROUTES.get(segment);
    if (!app) throw new RouteNotFound(segment);
    // Browsers cannot set headers on a websocket: chat-notifications issues them a single-use
    // ticket, which only it can redeem, so such an upgrade goes through unverified here (and is
    // limited by address). Everything else needs the Authorization header.
    const header = bearerToken(req.headers.authorization);
    let limitKey: string;
    if (!header && app === 'chat-notifications' && queryTicket(url) !== undefined) {
      limitKey = `ip:${clientAddress(req)}`;
    } else {
      const claims = await this.tokens.verify(header);
      note.userId = claims.sub;
      limitKey = `sub:${claims.sub}`;
    }
    const wait = this.limiter.take(limitKey);
    if (wait > 0) throw new RateLimited(wait);
    note.upstream = app;
    proxyUpgrade(req, socket, head, {
      origin: this.config.upstreams[app],
      app,
      upstreamTimeout: this.config.upstreamTimeout,
      requestId: note.requestId,
      onSettled: (status) => logLine(status),
      onTunnel: (client, upstream: Socket) => {
        this.tunnels.add(client);
        client.once('close', () => this.tunnels.delete(client));
        upstream.once('close', () => this.tunnels.delete(client));
      },
    });
  }

  // ---------------------------------------------------------------- shutdown

  close(): Promise<void> {
    this.closing ??= this.shutdown();
    return this.closing;
  }

  private async shutdown(): Promise<void> {
    const deadline = Date.now() + this.config.shutdownTimeout;
    const stopped = new Promise<void>((resolve) => this.server.close(() => resolve()));
    // Keep-alive connections with nothing in flight would hold close() open until they time out.
    this.server.closeIdleConnections();
    for (const res of this.active) if (!res.headersSent) res.setHeader('Connection', 'close');
    for (const tunnel of this.tunnels) tunnel.destroy();

    if (this.active.size > 0) {
      await new Promise<void>((resolve) => {
        const timer = setTimeout(resolve, Math.max(0, deadline - Date.now()));
        this.onIdle = () => {
          clearTimeout(timer);
          resolve();
        };
      });
    }
    this.server.closeAllConnections();
    await stopped;
    await this.forwarder.close(deadline);
    this.limiter.close();
    this.log.info({ in_flight_cut: this.active.size }, 'gateway stopped');
    this.log.flush();
  }
}

/**
 * X-Request-Id of a request by the platform's rule (the caller's when sane, else a new one),
 * without the platform helper's setHeader: see `begin`, and a handshake has no response at all.
 */
function incomingRequestId(req: IncomingMessage): string {
  let id = '';
  requestId(req, { setHeader: (_name: string, value: string) => (id = value) } as unknown as ServerResponse);
  return id;
}

/**
 * Starts the gateway (CONTRACT §0): a plain node:http server whose handler routes by first path
 * segment to keep-alive undici pools, with the gateway's own `/health`, `/openapi.json` and
 * `/docs` beside it. Throws ConfigError for a bad variable.
 */
export async function startGateway(env: Record<string, string | undefined>): Promise<RunningGateway> {
  const config = loadGatewayConfig(env);
  startTracing('gateway', config.otelEndpoint);
  const log = createLogger(config.logLevel);
  const gateway = new Gateway(config, log);
  const port = await gateway.listen();
  log.info({ port, upstreams: config.upstreams }, 'gateway listening');
  return { port, close: () => gateway.close() };
}
