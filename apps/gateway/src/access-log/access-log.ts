import type { IncomingMessage, ServerResponse } from 'node:http';
import { performance } from 'node:perf_hooks';
import type { ServiceName } from '@media/contracts';
import { endHttpSpan, type AppMetrics, type Span } from '@media/core';
import type { GatewayLogger } from '../logger';
import { redactUrl } from '../proxy/auth';
import { firstSegment, OWN_SEGMENTS, pathOf } from '../proxy/routes';

/** What the access log line of one request carries besides method, url and status. */
export interface RequestNote {
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
  /** The forwarded exchange: told when the response closes (one `close` listener per request). */
  exchange?: { clientClosed(): void };
}

/** A request's note as it begins: every field there from the start, one object shape for every request. */
export function newNote(requestId: string): RequestNote {
  return {
    requestId,
    started: performance.now(),
    userId: undefined,
    upstream: undefined,
    code: undefined,
    span: undefined,
    traceparent: undefined,
    exchange: undefined,
  };
}

/** The route label of a gateway request: its upstream's prefix, or its own path, never the raw path. */
function routeLabel(req: IncomingMessage, note: RequestNote): string {
  if (note.upstream) return `/${firstSegment(pathOf(req.url ?? '/'))}/*`;
  const path = pathOf(req.url ?? '/');
  return OWN_SEGMENTS.has(firstSegment(path)) ? path.replace(/^\/docs\/.*$/, '/docs/*') : 'unmatched';
}

const latency = (started: number) => Math.round((performance.now() - started) * 100) / 100;

/** One access log line per request and per upgrade (docs/api/contract.md §6), with the request metrics and span. */
export class AccessLog {
  constructor(
    private readonly metrics: AppMetrics,
    private readonly log: GatewayLogger,
  ) {}

  /** A request's answer ended (or was cut): the gateway's own probes are logged only at debug. */
  requestFinished(req: IncomingMessage, res: ServerResponse, note: RequestNote): void {
    const route = routeLabel(req, note);
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
        latency_ms: latency(note.started),
      };
      this.log[level](line, 'request completed');
    }
  }

  /** A websocket upgrade was answered (101 or a refusal). */
  upgradeSettled(req: IncomingMessage, note: RequestNote, status: number): void {
    this.log.info(
      {
        request_id: note.requestId,
        user_id: note.userId,
        method: req.method,
        url: redactUrl(req.url ?? ''),
        status,
        upstream: note.upstream,
        code: note.code,
        upgrade: true,
        latency_ms: latency(note.started),
      },
      'upgrade completed',
    );
  }
}
