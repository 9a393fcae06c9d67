import { type IncomingMessage, type Server, type ServerResponse } from 'node:http';
import { performance } from 'node:perf_hooks';
import type { AccessTokenClaims, ServiceName } from '@media/contracts';
import {
  answerClientErrors,
  AppMetrics,
  contextFrom,
  DomainError,
  InFlight,
  keepAliveGrace,
  lingerOnClose,
  openSpan,
  parseTrustedProxies,
  PayloadTooLarge,
  RateLimited,
  pickRequestId,
  SpanKind,
  stopAccepting,
  tokenRules,
  traceparentOf,
  Unauthenticated,
  type TrustedProxies,
} from '@media/core';
import { AccessLog, newNote, type RequestNote } from './access-log/access-log';
import type { GatewayConfig } from './config';
import { ConnectionCount } from './connections/connection-count';
import { listenOn } from './connections/listen';
import type { GatewayLogger } from './logger';
import { MetricsListener } from './metrics/metrics-listener';
import { OwnRoutes } from './own-routes/own-routes';
import { TokenChecker } from './proxy/auth';
import { allowedOrigin, answerPreflight, exposeToOrigin, isPreflight } from './proxy/cors';
import {
  BodyTooSlow,
  InternalError,
  InvalidPath,
  refuseUpload,
  RouteNotFound,
  sendError,
} from './proxy/errors';
import { bodyLimitOf, Forwarder } from './proxy/forward';
import { clientAddress } from './proxy/headers';
import { HostPolicy, publicOriginOf } from './proxy/hosts';
import { SECURITY_HEADERS, SecurityPolicy } from './proxy/security-headers';
import {
  firstSegment,
  hasDotSegment,
  isHealthPath,
  isPublicPath,
  isUpstreamMetrics,
  OWN_SEGMENTS,
  pathOf,
  ROUTES,
} from './proxy/routes';
import { Upgrades } from './proxy/upgrades';
import { goAway } from './shutdown/go-away';
import { gatewayRevocations, type GatewayRevocations } from './revocation/token-versions';
import { publicServer } from './connections/server';
import { processShare, type GatewayMode } from './workers/mode';
import { whenAllowed, type ClientLimit } from './workers/shared-rate-limit';

/** The gateway's server, its routes and its shutdown; `startGateway` (./start.ts) runs one. */
export class Gateway {
  private readonly server: Server;
  private readonly forwarder: Forwarder;
  private readonly tokens: TokenChecker;
  private readonly limiter: ClientLimit;
  private readonly metrics = new AppMetrics('gateway');
  private readonly accessLog: AccessLog;
  private readonly ownRoutes: OwnRoutes;
  private readonly metricsListener?: MetricsListener;
  private readonly connections: ConnectionCount;
  private readonly upgrades: Upgrades;
  /** Requests whose answer is not complete yet: shutdown waits for these. */
  private readonly active = new InFlight<ServerResponse>();
  private closing?: Promise<void>;
  /** When a request last began or ended, for the shutdown's keep-alive grace. */
  private lastActivity = 0;
  private readonly trusted: TrustedProxies;
  private readonly security: SecurityPolicy;
  private readonly healthLimiter: ClientLimit;
  private readonly corsOrigins: ReadonlySet<string>;
  private readonly revocations: GatewayRevocations;
  private readonly hosts: HostPolicy;

  constructor(
    private readonly config: GatewayConfig,
    private readonly log: GatewayLogger,
    private readonly mode: GatewayMode = {},
  ) {
    this.trusted = parseTrustedProxies(config.trustedProxies);
    this.security = new SecurityPolicy(this.trusted, config.hsts);
    this.forwarder = new Forwarder(config.upstreams, {
      security: this.security,
      upstreamTimeout: config.timeouts.upstream,
      minBodyRate: config.limits.minBodyRate,
      trustedProxies: this.trusted,
      publicOrigin: publicOriginOf(config.publicUrl),
    });
    this.revocations = gatewayRevocations(config, log);
    this.hosts = new HostPolicy(config.allowedHosts, this.trusted);
    this.tokens = new TokenChecker(config.auth.jwksUrl, tokenRules(config.auth), this.revocations.versions);
    const share = processShare(config, mode, this.metrics);
    this.limiter = share.limiter;
    this.healthLimiter = share.healthLimiter;
    this.metricsListener = share.metricsListener;
    this.corsOrigins = new Set(config.corsOrigins);
    this.accessLog = new AccessLog(this.metrics, log);
    this.ownRoutes = new OwnRoutes({
      pool: (app) => this.forwarder.pool(app),
      closing: () => this.closing !== undefined,
      log,
    });
    this.connections = new ConnectionCount(share.connections);
    this.upgrades = new Upgrades({
      config,
      log,
      accessLog: this.accessLog,
      tokens: this.tokens,
      limiter: this.limiter,
      trusted: this.trusted,
      hosts: this.hosts,
      connections: this.connections,
      closing: () => this.closing !== undefined,
      versions: this.revocations.versions,
    });
    this.server = publicServer(config.timeouts, this.onRequest);
    this.server.on('connection', this.connections.onConnection);
    // What Node's parser refuses (bad framing 400, headers too large 431, timeouts 408).
    answerClientErrors(this.server, SECURITY_HEADERS);
    this.server.on('checkContinue', this.onCheckContinue);
    this.server.on('upgrade', this.upgrades.onUpgrade);
    // An early answer (413, 415...) closes the connection only after the rest of the body was
    // read and dropped, within a bound, so the client sees the answer rather than a reset.
    lingerOnClose(this.server, { bytes: config.limits.upload, ms: 2_000 });
  }

  /**
   * Opens the public listener and the metrics one (both on HOST); the ports they got. A worker
   * opens only the public one (shared by all workers); its metrics port is the primary's.
   */
  async listen(): Promise<{ port: number; metricsPort: number }> {
    const metricsPort = (await this.metricsListener?.listen()) ?? this.config.metrics.port;
    const port = await listenOn(this.server, this.config.port, this.config.host).catch(async (error) => {
      await this.metricsListener?.close();
      throw error;
    });
    return { port, metricsPort };
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
    const limit = bodyLimitOf(req, this.config.limits, this.withoutToken(req));
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
    const note = newNote(pickRequestId(req));
    // Without an exporter a span would be a no-op, and the client's traceparent goes on as sent.
    if (this.mode.tracing) {
      const parent = contextFrom({ traceparent: req.headers.traceparent });
      const span = openSpan(`${req.method} ${pathOf(req.url ?? '/')}`, SpanKind.SERVER, parent, {
        'http.request.method': req.method ?? 'GET',
        request_id: note.requestId,
      });
      note.span = span.span;
      note.traceparent = traceparentOf(span.context);
    }
    const slot = this.active.add(res);
    if (this.closing) {
      res.setHeader('Connection', 'close');
      this.lastActivity = performance.now();
    }
    res.on('close', () => this.finished(req, res, note, slot));
    return note;
  }

  /** Host, routing, then token (docs/api/contract.md §2: host_not_allowed first; §0: 404 with or without a token). */
  private route(req: IncomingMessage, res: ServerResponse, note: RequestNote): void {
    const url = req.url ?? '/';
    // Only origin-form targets: absolute-form and `*` are for proxies and OPTIONS-to-server.
    if (url.charCodeAt(0) !== 47 /* "/" */) throw new InvalidPath();
    const path = pathOf(url);
    if (hasDotSegment(path)) throw new InvalidPath();
    // Before routing and tokens (as Django's ALLOWED_HOSTS); probes use pod addresses.
    const health = isHealthPath(path);
    if (!health) this.hosts.check(req);
    const segment = firstSegment(path);
    const own = OWN_SEGMENTS.has(segment);
    const app = own ? undefined : ROUTES.get(segment);
    if (!own && !app) throw new RouteNotFound(segment);
    // Health probes are cheap for a probe and costly to multiply: limited per client, apart.
    if (health) {
      const client = `ip:${clientAddress(req, this.trusted)}`;
      whenAllowed(
        this.healthLimiter,
        client,
        () => this.routeTo(app, path, req, res, note),
        (error) => this.fail(req, res, note, error),
      );
      return;
    }
    this.routeTo(app, path, req, res, note);
  }

  /** The gateway's own routes, or CORS, the token and the limits before forwarding to `app`. */
  private routeTo(
    app: ServiceName | undefined,
    path: string,
    req: IncomingMessage,
    res: ServerResponse,
    note: RequestNote,
  ): void {
    if (!app) {
      this.own(path, req, res, note).catch((error: unknown) => this.fail(req, res, note, error));
      return;
    }
    if (isUpstreamMetrics(path)) throw new DomainError(404, 'not_found', `Nothing at ${path}.`);
    if (note.traceparent) req.headers.traceparent = note.traceparent;
    const origin = allowedOrigin(req, this.corsOrigins);
    if (isPreflight(req)) {
      note.code = answerPreflight(req, res, note.requestId, origin, this.security.headersFor(req));
      return;
    }
    if (origin) exposeToOrigin(res, origin);

    if (isPublicPath(req.method ?? 'GET', path)) {
      this.admit(req, res, note, app, `ip:${clientAddress(req, this.trusted)}`);
      return;
    }
    const raw = this.tokens.bearerOf(req);
    // Most requests carry a token verified before: those go on without waiting a turn.
    const claims = this.tokens.cached(raw);
    if (claims) {
      this.admit(req, res, note, app, claims);
      return;
    }
    this.tokens
      .verify(raw)
      .then((verified) => this.admit(req, res, note, app, verified))
      .catch(async (error: unknown) => {
        // A refused token still costs its client a request (no free guessing or flooding).
        if (error instanceof Unauthenticated) {
          const wait = await this.limiter.take(`ip:${clientAddress(req, this.trusted)}`);
          if (wait > 0) error = new RateLimited(wait);
        }
        this.fail(req, res, note, error);
      });
  }

  /** Limits, then forwarding: the rate limit counts the token's user, else the address. */
  private admit(
    req: IncomingMessage,
    res: ServerResponse,
    note: RequestNote,
    app: ServiceName,
    client: AccessTokenClaims | string,
  ): void {
    const authenticated = typeof client !== 'string';
    if (authenticated) note.userId = client.sub;
    const wait = this.limiter.take(authenticated ? `sub:${client.sub}` : client);
    // Known at once (one process, or credits this worker holds): no closures, no promise.
    if (typeof wait === 'number') {
      if (wait > 0) throw new RateLimited(wait);
      return this.forward(req, res, note, app, authenticated);
    }
    wait
      .then((seconds) => {
        if (seconds > 0) throw new RateLimited(seconds);
        this.forward(req, res, note, app, authenticated);
      })
      .catch((error: unknown) => this.fail(req, res, note, error));
  }

  private forward(
    req: IncomingMessage,
    res: ServerResponse,
    note: RequestNote,
    app: ServiceName,
    authenticated: boolean,
  ): void {
    const length = req.headers['content-length'];
    const limit = bodyLimitOf(req, this.config.limits, !authenticated);
    if (length !== undefined && Number(length) > limit) throw new PayloadTooLarge(limit);
    note.upstream = app;
    note.exchange = this.forwarder.forward(app, req, res, note.requestId, authenticated, limit, (outcome) => {
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
    const limit = bodyLimitOf(req, this.config.limits, this.withoutToken(req));
    const unbounded =
      req.headers['transfer-encoding'] !== undefined ||
      Number(length) > limit ||
      answer instanceof BodyTooSlow;
    if (req.complete || !unbounded) sendError(res, answer, this.security.headersFor(req));
    else refuseUpload(req, res, answer, limit, this.security.headersFor(req));
  }

  /** Whether `req` goes to a public route, where a body comes without a token (PUBLIC_BODY_LIMIT). */
  private withoutToken(req: IncomingMessage): boolean {
    return isPublicPath(req.method ?? 'GET', pathOf(req.url ?? '/'));
  }

  private async own(
    path: string,
    req: IncomingMessage,
    res: ServerResponse,
    note: RequestNote,
  ): Promise<void> {
    res.setHeader('X-Request-Id', note.requestId);
    for (const [name, value] of Object.entries(this.security.headersFor(req))) res.setHeader(name, value);
    await this.ownRoutes.answer(path, req, res);
  }

  /** The end of a request's answer (or its cut): out of the in-flight set, into the access log. */
  private finished(req: IncomingMessage, res: ServerResponse, note: RequestNote, slot: number): void {
    note.exchange?.clientClosed();
    this.active.delete(slot, res);
    this.lastActivity = performance.now();
    this.accessLog.requestFinished(req, res, note);
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
    for (const [client, upstream] of this.upgrades.tunnels) goAway(client, upstream);
    // Busy connections close after their answer (Connection: close from now on). A keep-alive
    // connection whose answer went out before may get one more request, answered the same way;
    // only connections that stayed idle for the grace are cut, so a client that sent a request
    // just now does not see a reset.
    const grace = keepAliveGrace(this.config.timeouts.shutdown);
    while (Date.now() < deadline && (this.connections.http > 0 || this.upgrades.tunnels.size > 0)) {
      const idle = this.active.size === 0 && performance.now() - this.lastActivity >= grace;
      if (idle && this.upgrades.tunnels.size === 0) break;
      await new Promise((resolve) => setTimeout(resolve, 25));
    }
    // A websocket client that never answered the close frame is cut at the deadline.
    for (const client of this.upgrades.tunnels.keys()) client.destroy();
    this.server.closeAllConnections();
    await stopped;
    await this.forwarder.close(deadline);
    await this.metricsListener?.close();
    this.limiter.close();
    this.healthLimiter.close();
    await this.revocations.stop();
    this.log.info({ in_flight_cut: this.active.size }, 'gateway stopped');
    this.log.flush();
  }
}
