import { createServer, type IncomingMessage, type Server, type ServerResponse } from 'node:http';
import type { Socket } from 'node:net';
import type { Duplex } from 'node:stream';
import { performance } from 'node:perf_hooks';
import type { AccessTokenClaims, ServiceName } from '@media/contracts';
import {
  answerClientErrors,
  AppMetrics,
  bearerToken,
  contextFrom,
  DomainError,
  endHttpSpan,
  keepAliveGrace,
  lingerOnClose,
  openSpan,
  parseTrustedProxies,
  PayloadTooLarge,
  RateLimited,
  pickRequestId,
  runInApp,
  SpanKind,
  startTracing,
  stopAccepting,
  tokenRules,
  traceparentOf,
  Unauthenticated,
  UpstreamUnavailable,
  type Span,
  type TrustedProxies,
} from '@media/platform/core';
import { randomBytes, timingSafeEqual } from 'node:crypto';
import { gatewayConfig, type GatewayConfig } from './config';
import { mergedOpenApi } from './docs/openapi';
import { DOCS_CSP, serveDocs } from './docs/swagger-ui';
import { checkUpstreams, type Readiness } from './health/readiness';
import { createLogger, type GatewayLogger } from './logger';
import { queryTicket, redactUrl, TokenChecker } from './proxy/auth';
import {
  BodyTooSlow,
  InternalError,
  InvalidPath,
  refuseUpload,
  RouteNotFound,
  sendError,
  writeSocketError,
} from './proxy/errors';
import { bodyLimitOf, Forwarder } from './proxy/forward';
import { clientAddress } from './proxy/headers';
import { RateLimiter } from './proxy/rate-limit';
import { SECURITY_HEADERS, SecurityPolicy } from './proxy/security-headers';
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

/** `/health/*` of the gateway and `/<prefix>/health/*` of every app. */
const HEALTH_PATH = /^\/(?:[^/]+\/)?health(?:\/|$)/;

/** How long one readiness report of every upstream is reused. */
const READINESS_CACHE_MS = 1_000;

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
  /** Open websocket tunnels (client socket -> upstream socket): shutdown closes them with 1001. */
  private readonly tunnels = new Map<Duplex, Socket>();
  private closing?: Promise<void>;
  /** When a request last began or ended, for the shutdown's keep-alive grace. */
  private lastActivity = 0;
  private readonly trusted: TrustedProxies;
  private readonly security: SecurityPolicy;
  private readonly healthLimiter: RateLimiter;
  private readonly corsOrigins: ReadonlySet<string>;
  /** The last readiness report, reused for READINESS_CACHE_MS. */
  private readiness?: { at: number; report: Promise<Readiness> };
  /** Open HTTP connections (MAX_CONNECTIONS) and upgraded ones (MAX_WEBSOCKETS), counted apart. */
  private httpConnections = 0;
  private websockets = 0;

  constructor(
    private readonly config: GatewayConfig,
    private readonly log: GatewayLogger,
  ) {
    this.trusted = parseTrustedProxies(config.trustedProxies);
    this.security = new SecurityPolicy(this.trusted, config.hsts);
    this.forwarder = new Forwarder(config.upstreams, {
      security: this.security,
      limits: config.limits,
      upstreamTimeout: config.timeouts.upstream,
      minBodyRate: config.limits.minBodyRate,
      trustedProxies: this.trusted,
    });
    this.tokens = new TokenChecker(config.auth.jwksUrl, tokenRules(config.auth));
    this.limiter = new RateLimiter(config.limits.ratePerMinute);
    this.healthLimiter = new RateLimiter(config.limits.healthRatePerMinute);
    this.corsOrigins = new Set(config.corsOrigins);
    this.server = createServer(
      {
        headersTimeout: config.timeouts.headers,
        requestTimeout: config.timeouts.request,
        keepAliveTimeout: config.timeouts.idle,
        // Node checks the two timeouts above on this interval (30 s by default).
        connectionsCheckingInterval: Math.max(100, Math.min(1_000, config.timeouts.headers / 4)),
      },
      this.onRequest,
    );
    // A connection that stays silent (never a byte, or between requests) is closed; one with an
    // answer under way is bounded by UPSTREAM_TIMEOUT instead.
    this.server.timeout = config.timeouts.idle;
    this.server.on('timeout', (socket: Socket & { _httpMessage?: ServerResponse | null }) => {
      if (socket._httpMessage && !socket._httpMessage.writableFinished) return;
      socket.destroy();
    });
    this.server.on('connection', this.onConnection);
    // What Node's parser refuses (bad framing 400, headers too large 431, timeouts 408).
    answerClientErrors(this.server, SECURITY_HEADERS);
    this.server.on('checkContinue', this.onCheckContinue);
    this.server.on('upgrade', this.onUpgrade);
    // An early answer (413, 415...) closes the connection only after the rest of the body was
    // read and dropped, within a bound, so the client sees the answer rather than a reset.
    lingerOnClose(this.server, { bytes: config.limits.upload, ms: 2_000 });
  }

  /** MAX_CONNECTIONS: one more is answered 503 and closed at once. */
  private readonly onConnection = (socket: Socket): void => {
    if (this.httpConnections >= this.config.limits.maxConnections) {
      const error = new UpstreamUnavailable('The gateway is at its connection limit; retry shortly.');
      socket.on('error', () => socket.destroy());
      writeSocketError(socket, error, '');
      return;
    }
    this.httpConnections += 1;
    let counted = true;
    (socket as Socket & { [UNCOUNT]?: () => void })[UNCOUNT] = () => {
      if (counted) this.httpConnections -= 1;
      counted = false;
    };
    socket.once('close', () => (socket as Socket & { [UNCOUNT]?: () => void })[UNCOUNT]?.());
  };

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
    const limit = bodyLimitOf(req, this.config.limits);
    if (Number(req.headers['content-length']) > limit) {
      const note = this.begin(req, res);
      note.code = 'payload_too_large';
      res.setHeader('X-Request-Id', note.requestId);
      // The client holds the body back until it hears 100, so there is nothing to drain.
      sendError(res, new PayloadTooLarge(limit), { ...this.security.headersFor(req), Connection: 'close' });
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
    const note: RequestNote = { requestId: pickRequestId(req), started: performance.now() };
    const parent = contextFrom({ traceparent: req.headers.traceparent });
    const span = openSpan(`${req.method} ${pathOf(req.url ?? '/')}`, SpanKind.SERVER, parent, {
      'http.request.method': req.method ?? 'GET',
      request_id: note.requestId,
    });
    note.span = span.span;
    note.traceparent = traceparentOf(span.context);
    this.active.add(res);
    if (this.closing) {
      res.setHeader('Connection', 'close');
      this.lastActivity = performance.now();
    }
    res.on('close', () => this.finished(req, res, note));
    return note;
  }

  /** Routing, then the token (docs/api/contract.md §0: an unknown segment is 404 with or without one). */
  private route(req: IncomingMessage, res: ServerResponse, note: RequestNote): void {
    const url = req.url ?? '/';
    // Only origin-form targets: absolute-form and `*` are for proxies and OPTIONS-to-server.
    if (url.charCodeAt(0) !== 47 /* "/" */) throw new InvalidPath();
    const path = pathOf(url);
    if (hasDotSegment(path)) throw new InvalidPath();
    const segment = firstSegment(path);
    const own = OWN_SEGMENTS.has(segment);
    const app = own ? undefined : ROUTES.get(segment);
    if (!own && !app) throw new RouteNotFound(segment);
    // Health probes are cheap for a probe and costly to multiply: limited per client, apart.
    if (HEALTH_PATH.test(path)) {
      const wait = this.healthLimiter.take(`ip:${clientAddress(req, this.trusted)}`);
      if (wait > 0) throw new RateLimited(wait);
    }
    if (!app) {
      this.own(path, req, res, note).catch((error: unknown) => this.fail(req, res, note, error));
      return;
    }
    if (isUpstreamMetrics(path)) throw new DomainError(404, 'not_found', `Nothing at ${path}.`);
    if (note.traceparent) req.headers.traceparent = note.traceparent;
    const origin = req.headers.origin;
    const allowedOrigin = origin !== undefined && this.corsOrigins.has(origin) ? origin : undefined;
    if (isPreflight(req)) return this.preflight(req, res, note, allowedOrigin);
    if (allowedOrigin) {
      res.setHeader('Access-Control-Allow-Origin', allowedOrigin);
      res.setHeader(
        'Access-Control-Expose-Headers',
        'X-Request-Id, Retry-After, ETag, Location, Idempotent-Replayed',
      );
      res.setHeader('Vary', 'Origin');
    }

    if (isPublicPath(req.method ?? 'GET', path)) {
      this.admit(req, res, note, app, `ip:${clientAddress(req, this.trusted)}`);
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
      .catch((error: unknown) => {
        // A refused token still costs its client a request (no free guessing or flooding).
        if (error instanceof Unauthenticated) {
          const wait = this.limiter.take(`ip:${clientAddress(req, this.trusted)}`);
          if (wait > 0) error = new RateLimited(wait);
        }
        this.fail(req, res, note, error);
      });
  }

  /** CORS preflights are answered here (CORS_ORIGINS), never forwarded. */
  private preflight(
    req: IncomingMessage,
    res: ServerResponse,
    note: RequestNote,
    allowedOrigin: string | undefined,
  ): void {
    res.setHeader('X-Request-Id', note.requestId);
    res.setHeader('Vary', 'Origin');
    if (!allowedOrigin) {
      note.code = 'forbidden';
      sendError(
        res,
        new DomainError(403, 'forbidden', 'This origin may not call the API.'),
        this.security.headersFor(req),
      );
      return;
    }
    const asked = req.headers['access-control-request-headers'];
    res.writeHead(204, {
      ...this.security.headersFor(req),
      'Access-Control-Allow-Origin': allowedOrigin,
      'Access-Control-Allow-Methods': 'GET, HEAD, POST, PUT, PATCH, DELETE',
      'Access-Control-Allow-Headers':
        asked && /^[\w\-, ]{1,1000}$/.test(asked)
          ? asked
          : 'Authorization, Content-Type, X-Request-Id, Idempotency-Key, If-Match',
      'Access-Control-Max-Age': '600',
    });
    res.end();
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
    const limit = bodyLimitOf(req, this.config.limits);
    if (length !== undefined && Number(length) > limit) throw new PayloadTooLarge(limit);
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
    // the connection kept; a chunked, oversized or trickling one must not be read to its end.
    const length = req.headers['content-length'];
    const limit = bodyLimitOf(req, this.config.limits);
    const unbounded =
      req.headers['transfer-encoding'] !== undefined ||
      Number(length) > limit ||
      answer instanceof BodyTooSlow;
    if (req.complete || !unbounded) sendError(res, answer, this.security.headersFor(req));
    else refuseUpload(req, res, answer, limit, this.security.headersFor(req));
  }

  private async own(
    path: string,
    req: IncomingMessage,
    res: ServerResponse,
    note: RequestNote,
  ): Promise<void> {
    res.setHeader('X-Request-Id', note.requestId);
    for (const [name, value] of Object.entries(this.security.headersFor(req))) res.setHeader(name, value);
    if (req.method !== 'GET' && req.method !== 'HEAD') {
      sendError(res, new DomainError(405, 'method_not_allowed', `${req.method} is not allowed on ${path}.`), {
        Allow: 'GET, HEAD',
      });
      return;
    }
    if (path === '/health/live') return sendJson(res, 200, { status: 'ok' });
    if (path === '/health/ready') {
      const readiness = await this.readinessReport();
      return sendJson(res, readiness.status === 'ok' && !this.closing ? 200 : 503, readiness);
    }
    if (path === '/metrics') return this.exposeMetrics(req, res);
    if (path === '/docs' || path === '/docs/') res.setHeader('Content-Security-Policy', DOCS_CSP);
    if (path === '/openapi.json')
      return sendJson(res, 200, await mergedOpenApi((app) => this.forwarder.pool(app)));
    if (serveDocs(path, res)) return;
    sendError(res, new DomainError(404, 'not_found', `Nothing at ${path}.`));
  }

  /** Every upstream's readiness, asked at most once per READINESS_CACHE_MS however many ask. */
  private readinessReport(now = Date.now()): Promise<Readiness> {
    if (!this.readiness || now - this.readiness.at >= READINESS_CACHE_MS) {
      this.readiness = { at: now, report: checkUpstreams((app) => this.forwarder.pool(app)) };
    }
    return this.readiness.report;
  }

  /** The gateway's Prometheus metrics; with METRICS_TOKEN set, only for a scraper that presents it. */
  private async exposeMetrics(req: IncomingMessage, res: ServerResponse): Promise<void> {
    const expected = this.config.metrics.token;
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

  /** One access log line per request (docs/api/contract.md §6); the gateway's own probes only at debug. */
  private finished(req: IncomingMessage, res: ServerResponse, note: RequestNote): void {
    this.active.delete(res);
    this.lastActivity = performance.now();
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
  }

  // ---------------------------------------------------------------- websocket upgrades

  private readonly onUpgrade = (req: IncomingMessage, socket: Duplex, head: Buffer): void => {
    socket.on('error', () => socket.destroy());
    const started = performance.now();
    const id = pickRequestId(req);
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
      limitKey = `ip:${clientAddress(req, this.trusted)}`;
    } else {
      const claims = await this.tokens.verify(header);
      note.userId = claims.sub;
      limitKey = `sub:${claims.sub}`;
    }
    const wait = this.limiter.take(limitKey);
    if (wait > 0) throw new RateLimited(wait);
    note.upstream = app;
    if (this.websockets >= this.config.limits.maxWebsockets)
      throw new UpstreamUnavailable('The gateway is at its websocket limit; retry shortly.');
    proxyUpgrade(req, socket, head, {
      origin: this.config.upstreams[app],
      app,
      upstreamTimeout: this.config.timeouts.upstream,
      requestId: note.requestId,
      trustedProxies: this.trusted,
      onSettled: (status) => logLine(status),
      onTunnel: (client, upstream: Socket) => {
        // An open tunnel is exempt from the HTTP timeouts and counts as a websocket, not HTTP.
        (client as Socket).setTimeout?.(0);
        (client as Socket & { [UNCOUNT]?: () => void })[UNCOUNT]?.();
        this.websockets += 1;
        let open = true;
        const closed = () => {
          if (open) this.websockets -= 1;
          open = false;
          this.tunnels.delete(client);
        };
        this.tunnels.set(client, upstream);
        client.once('close', closed);
        upstream.once('close', closed);
      },
    });
  }

  // ---------------------------------------------------------------- shutdown

  close(): Promise<void> {
    this.closing ??= this.shutdown();
    return this.closing;
  }

  private async shutdown(): Promise<void> {
    const deadline = Date.now() + this.config.timeouts.shutdown;
    const stopped = stopAccepting(this.server);
    for (const res of this.active) if (!res.headersSent) res.setHeader('Connection', 'close');
    for (const [client, upstream] of this.tunnels) goAway(client, upstream);
    // Busy connections close after their answer (Connection: close from now on). A keep-alive
    // connection whose answer went out before may get one more request, answered the same way;
    // only connections that stayed idle for the grace are cut, so a client that sent a request
    // just now does not see a reset.
    const grace = keepAliveGrace(this.config.timeouts.shutdown);
    while (Date.now() < deadline && (this.httpConnections > 0 || this.tunnels.size > 0)) {
      const idle = this.active.size === 0 && performance.now() - this.lastActivity >= grace;
      if (idle && this.tunnels.size === 0) break;
      await new Promise((resolve) => setTimeout(resolve, 25));
    }
    // A websocket client that never answered the close frame is cut at the deadline.
    for (const client of this.tunnels.keys()) client.destroy();
    this.server.closeAllConnections();
    await stopped;
    await this.forwarder.close(deadline);
    this.limiter.close();
    this.healthLimiter.close();
    this.log.info({ in_flight_cut: this.active.size }, 'gateway stopped');
    this.log.flush();
  }
}

/**
 * Ends a websocket tunnel as a server going away would (RFC 6455 close code 1001), so the
 * client reconnects rather than seeing an abnormal 1006: the splice stops, the client gets a
 * close frame (unmasked, server to client), the upstream one from "the client" (masked), and
 * each side closes once it answered. The splice is byte for byte, so a frame the upstream was
 * sending at that very moment may be cut short before the close frame; clients then see 1002.
 */
function goAway(client: Duplex, upstream: Socket): void {
  upstream.unpipe(client);
  client.unpipe(upstream);
  const code = Buffer.from([0x03, 0xe9]); // 1001
  const mask = randomBytes(4);
  const masked = Buffer.from(code.map((byte, i) => byte ^ mask[i % 4]));
  // The upstream's close ends the tunnel (and destroys the client socket): only once the
  // client's close frame is out.
  client.end(Buffer.concat([Buffer.from([0x88, code.length]), code]), () =>
    upstream.end(Buffer.concat([Buffer.from([0x88, 0x80 | code.length]), mask, masked])),
  );
}

/** Takes a socket out of the HTTP connection count (once). */
const UNCOUNT = Symbol('uncount');

/**
 * X-Request-Id of a request by the platform's rule (the caller's when sane, else a new one),
 * without the platform helper's setHeader: see `begin`, and a handshake has no response at all.
 */

/**
 * Starts the gateway (docs/api/contract.md §0): a plain node:http server whose handler routes by first path
 * segment to keep-alive undici pools, with the gateway's own `/health`, `/openapi.json` and
 * `/docs` beside it. Throws ConfigError for a bad variable.
 */
export function startGateway(env: Record<string, string | undefined>): Promise<RunningGateway> {
  // Its server and everything it starts are the gateway's (logs, spans), also in the embedded default.
  return runInApp({ app: 'gateway' }, () => boot(env));
}

async function boot(env: Record<string, string | undefined>): Promise<RunningGateway> {
  const config = gatewayConfig.load(env);
  startTracing('gateway', config.tracing.otlpEndpoint);
  const log = createLogger(config.log.level);
  const gateway = new Gateway(config, log);
  const port = await gateway.listen();
  log.info({ port, upstreams: config.upstreams }, 'gateway listening');
  return { port, close: () => gateway.close() };
}
